import { type Static, Type } from '@sinclair/typebox';
import { defaulted } from './endpoint.ts';
import { ACCOUNT_HEADER } from './headers.ts';
import { SpendingCapFields, SpendingCapSetting } from './pricing.ts';
import { ACCOUNT_NAME_PATTERN } from './rules.ts';

export const AccountStatus = Type.Union([Type.Literal('ACTIVE'), Type.Literal('SUSPENDED')]);
export const OWNER_ROLE = 'OWNER';
/** Given to people added through Add User (docs/roles.md). */
export const MEMBER_ROLE = 'MEMBER';
/** Not a role anyone holds: how a pending invitation shows in an account's userRoles. */
export const INVITED_ROLE = 'INVITED';

/** Renaming the account and adding or removing people are the owner's alone (docs/roles.md). */
export const canManageAccount = (roleName: string | null | undefined) => roleName === OWNER_ROLE;

export const AccountSummary = Type.Object({
  id: Type.String(),
  accountId: Type.String(),
  name: Type.String(),
  accountName: Type.String(),
  status: AccountStatus,
  isBillingApiEnabled: Type.Boolean(),
  roleName: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
});

export const UserRole = Type.Object({
  id: Type.String(),
  email: Type.String(),
  firstName: Type.String(),
  lastName: Type.String(),
  roleName: Type.String(),
});

export const AutoDepositSetting = Type.Object({
  autoDepositEnabled: Type.Boolean(),
  minBalance: Type.Union([Type.Number(), Type.Null()]),
  autoDepositAmount: Type.Union([Type.Number(), Type.Null()]),
});

export const AccountDetails = Type.Composite([
  AccountSummary,
  Type.Object({
    balance: Type.Number({ description: 'USD; the sum of the completed ledger rows' }),
    amountPending: Type.Number({ description: 'USD that pending withdrawals will take (positive)' }),
    owner: Type.Object({ email: Type.String() }),
    userRoles: Type.Array(UserRole),
    setting: Type.Object({ autoDeposit: AutoDepositSetting, spendingCap: SpendingCapSetting }),
  }),
]);

export const AccountListQuery = Type.Object(
  {
    limit: defaulted(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
    offset: defaulted(Type.Integer({ minimum: 0, default: 0 })),
  },
  { additionalProperties: false },
);
export const AccountList = Type.Object({
  accounts: Type.Array(AccountSummary),
  offset: Type.Integer(),
  limit: Type.Integer(),
  total: Type.Integer(),
  count: Type.Integer(),
});

/** The account list, create and finish calls may send ebs-account-id empty or leave it out (spec A §6). */
export const OptionalAccountHeaders = Type.Object({ [ACCOUNT_HEADER]: Type.Optional(Type.String()) });

export const CreateAccountBody = Type.Object(
  {
    accountName: Type.String({ maxLength: 1024, description: `must match ${ACCOUNT_NAME_PATTERN}` }),
    customerId: Type.Optional(Type.String({ maxLength: 255 })),
  },
  { additionalProperties: false },
);

/**
 * spec A §4: the wizard's finish step. accountId names the draft (ACCOUNT_CREATION) made when the
 * wizard reached its payment step; it falls back to ebs-account-id.
 */
export const FinishCreateAccountBody = Type.Object(
  {
    accountId: Type.Optional(Type.String({ format: 'uuid' })),
    accountName: Type.String({ maxLength: 1024, description: `must match ${ACCOUNT_NAME_PATTERN}` }),
    redeemWelcomeCredit: Type.Optional(Type.Boolean()),
    cardId: Type.Optional(Type.Union([Type.String({ format: 'uuid' }), Type.Null()])),
  },
  { additionalProperties: false },
);
export type FinishCreateAccountBody = Static<typeof FinishCreateAccountBody>;

export const FeatureName = Type.Union([Type.Literal('TOKEN_FORWARDING')]);
export const FeatureQuery = Type.Object({ featureName: FeatureName }, { additionalProperties: false });
export const FeatureResult = Type.Object({ featureName: FeatureName, result: Type.Boolean() });

/**
 * spec A §7: auto pay is saved as settingName autoDeposit with the toggle, or the threshold and
 * amount; the owner sets the spending cap as settingName spendingCap (docs/api.md "Pricing").
 */
export const UpdateAccountSettingsBody = Type.Union([
  Type.Object(
    {
      settingName: Type.Literal('autoDeposit'),
      fields: Type.Union([
        Type.Object({ autoDepositEnabled: Type.Boolean() }, { additionalProperties: false }),
        Type.Object(
          {
            // Both are required: the service answers "Deposit amount is required." for a missing one.
            minBalance: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
            autoDepositAmount: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
          },
          { additionalProperties: false },
        ),
      ]),
    },
    { additionalProperties: false },
  ),
  Type.Object({ settingName: Type.Literal('spendingCap'), fields: SpendingCapFields }, { additionalProperties: false }),
]);
/** What updateAccountSettings answers: the setting as saved. */
export const AccountSettingResult = Type.Union([AutoDepositSetting, SpendingCapSetting]);
export const AUTO_PAY_MIN_BALANCE = { min: 1, max: 99999, default: 1 } as const;
export type UpdateAccountSettingsBody = Static<typeof UpdateAccountSettingsBody>;

export type AccountSummary = Static<typeof AccountSummary>;
export type AccountDetails = Static<typeof AccountDetails>;
export type AccountList = Static<typeof AccountList>;
export type AccountListQuery = Static<typeof AccountListQuery>;
export type CreateAccountBody = Static<typeof CreateAccountBody>;
export type FeatureName = Static<typeof FeatureName>;
export type FeatureResult = Static<typeof FeatureResult>;
export type UserRole = Static<typeof UserRole>;
