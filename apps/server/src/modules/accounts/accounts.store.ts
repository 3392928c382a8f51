import { type AccountDetails, type AccountSummary, INVITED_ROLE, OWNER_ROLE, type UserRole } from '@ebs/contract';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { findUserEmail, findUserNames, type UserName } from '../identity/index.ts';
import { balanceOf, hasLedgerRows, pendingOf } from '../ledger/index.ts';

type SummaryRow = {
  id: string;
  name: string;
  is_billing_api_enabled: boolean;
  role_name: string;
  created_at: Date;
};

const toSummary = (r: SummaryRow): AccountSummary => ({
  id: r.id,
  accountId: r.id,
  name: r.name,
  accountName: r.name,
  status: r.is_billing_api_enabled ? 'ACTIVE' : 'SUSPENDED',
  isBillingApiEnabled: r.is_billing_api_enabled,
  roleName: r.role_name,
  createdAt: r.created_at.toISOString(),
});

/** The account's balance and pending amount (billing/available-credit.ts) as decimal text. */
export const ledgerBalance = () => sql<string>`${balanceOf('a.id')}::text`;
export const ledgerPending = () => sql<string>`${pendingOf('a.id')}::text`;

const summaryColumns = ['a.id', 'a.name', 'a.is_billing_api_enabled', 'm.role_name', 'a.created_at'] as const;

/** The accounts a user belongs to, oldest first, with the user's role in each. */
export async function listAccountsOfUser(
  db: Db,
  userId: string,
  page: { limit: number; offset: number },
): Promise<{ accounts: AccountSummary[]; total: number }> {
  const base = db
    .selectFrom('accounts as a')
    .innerJoin('account_members as m', 'm.account_id', 'a.id')
    .where('m.user_id', '=', userId)
    .where('a.is_draft', '=', false);
  const [rows, count] = await Promise.all([
    base
      .select(summaryColumns)
      .orderBy('a.created_at', 'asc')
      .orderBy('a.id')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    base.select(sql<string>`count(*)`.as('total')).executeTakeFirstOrThrow(),
  ]);
  return { accounts: rows.map(toSummary), total: Number(count.total) };
}

/** Finished accounts the user owns: the wizard's draft does not count towards the limit. */
export async function countOwnedAccounts(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom('account_members as m')
    .innerJoin('accounts as a', 'a.id', 'm.account_id')
    .select(sql<string>`count(*)`.as('n'))
    .where('m.user_id', '=', userId)
    .where('m.role_name', '=', OWNER_ROLE)
    .where('a.is_draft', '=', false)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The user's open creation-wizard draft, if any. */
export async function findDraftOf(db: Db, userId: string): Promise<AccountSummary | undefined> {
  const row = await db
    .selectFrom('accounts as a')
    .innerJoin('account_members as m', (j) => j.onRef('m.account_id', '=', 'a.id').on('m.user_id', '=', userId))
    .select(summaryColumns)
    .where('a.created_by', '=', userId)
    .where('a.is_draft', '=', true)
    .orderBy('a.created_at')
    .executeTakeFirst();
  return row && toSummary(row);
}

/** The account row a finish step works on, locked for the rest of the transaction. */
export async function lockAccountOfOwner(db: Db, accountId: string, userId: string) {
  return db
    .selectFrom('accounts as a')
    .innerJoin('account_members as m', (j) => j.onRef('m.account_id', '=', 'a.id').on('m.user_id', '=', userId))
    .select(['a.id', 'a.name', 'a.is_draft', 'm.role_name'])
    .where('a.id', '=', accountId)
    .forUpdate('a')
    .executeTakeFirst();
}

/** A draft becomes an account: its final name, created now. */
export async function finishDraft(db: Db, accountId: string, name: string): Promise<void> {
  await db
    .updateTable('accounts')
    .set({ name, is_draft: false, created_at: sql`now()` })
    .where('id', '=', accountId)
    .where('is_draft', '=', true)
    .execute();
}

export async function findSummary(db: Db, accountId: string, userId: string): Promise<AccountSummary | undefined> {
  const row = await db
    .selectFrom('accounts as a')
    .innerJoin('account_members as m', (j) => j.onRef('m.account_id', '=', 'a.id').on('m.user_id', '=', userId))
    .select(summaryColumns)
    .where('a.id', '=', accountId)
    .executeTakeFirst();
  return row && toSummary(row);
}

/** Drafts left in the wizard for longer than the given age, with no ledger rows (drafts take no money). */
export async function staleDrafts(db: Db, olderThanSeconds: number) {
  return db
    .selectFrom('accounts as a')
    .select('a.id')
    .where('a.is_draft', '=', true)
    .where('a.created_at', '<', sql<Date>`now() - make_interval(secs => ${olderThanSeconds})`)
    .where(({ not }) => not(hasLedgerRows('a.id')))
    .execute();
}

export async function deleteDraft(db: Db, accountId: string): Promise<boolean> {
  const deleted = await db
    .deleteFrom('accounts')
    .where('id', '=', accountId)
    .where('is_draft', '=', true)
    .executeTakeFirst();
  return Number(deleted.numDeletedRows) > 0;
}

/** Serialises account creation per user, so two requests cannot both pass the account limit. */
export { lockUser } from '../identity/index.ts';

export async function insertAccount(
  db: Db,
  account: {
    name: string;
    customerId: string | null;
    ownerId: string;
    roleName: string;
    isDraft?: boolean;
    signingSecretSealed?: string;
  },
): Promise<AccountSummary> {
  const row = await db
    .insertInto('accounts')
    .values({
      name: account.name,
      customer_id: account.customerId,
      created_by: account.ownerId,
      is_draft: account.isDraft ?? false,
      signing_secret_sealed: account.signingSecretSealed ?? null,
    })
    .returning(['id', 'name', 'is_billing_api_enabled', 'created_at'])
    .executeTakeFirstOrThrow();
  await db
    .insertInto('account_members')
    .values({ account_id: row.id, user_id: account.ownerId, role_name: account.roleName })
    .execute();
  return toSummary({ ...row, role_name: account.roleName });
}

export async function findAccountDetails(
  db: Db,
  accountId: string,
  userId: string,
): Promise<AccountDetails | undefined> {
  const row = await db
    .selectFrom('accounts as a')
    .innerJoin('account_members as m', (j) => j.onRef('m.account_id', '=', 'a.id').on('m.user_id', '=', userId))
    .select([
      ...summaryColumns,
      'a.created_by',
      'a.auto_deposit_enabled',
      sql<string | null>`a.auto_deposit_min_balance::text`.as('min_balance'),
      sql<string | null>`a.auto_deposit_amount::text`.as('deposit_amount'),
      sql<string | null>`a.monthly_cap_usd::text`.as('monthly_cap'),
      sql<string | null>`a.auto_pay_monthly_max_usd::text`.as('auto_pay_monthly_max'),
      ledgerBalance().as('balance'),
      ledgerPending().as('amount_pending'),
    ])
    .where('a.id', '=', accountId)
    .executeTakeFirst();
  if (!row) return undefined;
  const ownerEmail = await findUserEmail(db, row.created_by);
  if (ownerEmail === undefined) return undefined;
  return {
    ...toSummary(row),
    balance: Number(row.balance),
    amountPending: Number(row.amount_pending),
    owner: { email: ownerEmail },
    userRoles: await listUserRoles(db, accountId),
    setting: {
      autoDeposit: {
        autoDepositEnabled: row.auto_deposit_enabled,
        minBalance: row.min_balance === null ? null : Number(row.min_balance),
        autoDepositAmount: row.deposit_amount === null ? null : Number(row.deposit_amount),
      },
      spendingCap: { monthlyCapUsd: row.monthly_cap, autoPayMonthlyMaxUsd: row.auto_pay_monthly_max },
    },
  };
}

/**
 * The account's people: members oldest first (then by e-mail), then pending invitations (roleName
 * INVITED, their own id, no name yet) so that the owner sees and can cancel them. Members' e-mails
 * and names are identity's, read by their ids.
 */
export async function listUserRoles(db: Db, accountId: string): Promise<UserRole[]> {
  const [members, invitations] = await Promise.all([
    listMembers(db, accountId),
    db
      .selectFrom('account_invitations')
      .select(['id', 'email'])
      .where('account_id', '=', accountId)
      .orderBy('created_at')
      .orderBy('email')
      .execute(),
  ]);
  return [
    ...members.map((m) => ({
      id: m.id,
      email: m.email,
      firstName: m.givenName,
      lastName: m.familyName,
      roleName: m.roleName,
    })),
    ...invitations.map((r) => ({ id: r.id, email: r.email, firstName: '', lastName: '', roleName: INVITED_ROLE })),
  ];
}

/** The account's members with their e-mails and names, by the time they joined and then by e-mail. */
async function listMembers(db: Db, accountId: string): Promise<(UserName & { roleName: string })[]> {
  const members = await db
    .selectFrom('account_members')
    .select([
      'user_id',
      'role_name',
      // Members who joined at the same instant share a rank, and are then ordered by e-mail.
      sql<number>`(dense_rank() over (order by created_at))::int`.as('joined'),
    ])
    .where('account_id', '=', accountId)
    .execute();
  // Ordered by e-mail in the database, so ties are broken by its collation, as a join would.
  const users = await findUserNames(
    db,
    members.map((m) => m.user_id),
  );
  const byId = new Map(users.map((user, order) => [user.id, { user, order }]));
  return members
    .flatMap((m) => {
      const found = byId.get(m.user_id);
      return found ? [{ ...found, joined: m.joined, roleName: m.role_name }] : [];
    })
    .sort((a, b) => a.joined - b.joined || a.order - b.order)
    .map(({ user, roleName }) => ({ ...user, roleName }));
}

export async function isFeatureEnabled(db: Db, accountId: string, featureName: string): Promise<boolean> {
  const row = await db
    .selectFrom('account_features')
    .select('enabled')
    .where('account_id', '=', accountId)
    .where('feature_name', '=', featureName)
    .executeTakeFirst();
  return row?.enabled === true;
}

export async function setFeature(db: Db, accountId: string, featureName: string, enabled: boolean): Promise<void> {
  await db
    .insertInto('account_features')
    .values({ account_id: accountId, feature_name: featureName, enabled })
    .onConflict((c) => c.columns(['account_id', 'feature_name']).doUpdateSet({ enabled, updated_at: sql`now()` }))
    .execute();
}

export async function accountExists(db: Db, accountId: string): Promise<boolean> {
  return (await db.selectFrom('accounts').select('id').where('id', '=', accountId).executeTakeFirst()) !== undefined;
}
