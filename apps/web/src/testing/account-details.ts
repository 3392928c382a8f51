import type { AccountDetails } from '@ebs/contract';

export const TEST_ACCOUNT_ID = '11111111-1111-4111-8111-111111111111';

/** No spending cap and no Auto Pay monthly limit: what a new account has. */
export const NO_SPENDING_CAP = { monthlyCapUsd: null, autoPayMonthlyMaxUsd: null };

/** An ACTIVE account "Ops" with 25 USD, owned by owner@example.com, as GET /account/details answers it. */
export const accountDetails = (patch: Partial<AccountDetails> = {}): AccountDetails => ({
  id: TEST_ACCOUNT_ID,
  accountId: TEST_ACCOUNT_ID,
  name: 'Ops',
  accountName: 'Ops',
  status: 'ACTIVE',
  isBillingApiEnabled: true,
  roleName: 'OWNER',
  createdAt: '2026-11-21T12:00:00.000Z',
  balance: 25,
  amountPending: 0,
  owner: { email: 'owner@example.com' },
  userRoles: [],
  setting: {
    autoDeposit: { autoDepositEnabled: false, minBalance: null, autoDepositAmount: null },
    spendingCap: NO_SPENDING_CAP,
  },
  ...patch,
});
