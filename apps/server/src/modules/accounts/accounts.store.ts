import { type AccountDetails, type AccountSummary, INVITED_ROLE, OWNER_ROLE, type UserRole } from '@ebs/contract';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { balanceOf, pendingOf } from '../ledger/available-credit.ts';

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
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('account_transactions as t').select('t.id').whereRef('t.account_id', '=', 'a.id'))),
    )
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
export async function lockUser(db: Db, userId: string): Promise<void> {
  await db.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
}

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
    .innerJoin('users as owner', 'owner.id', 'a.created_by')
    .select([
      ...summaryColumns,
      'owner.email as owner_email',
      'a.auto_deposit_enabled',
      sql<string | null>`a.auto_deposit_min_balance::text`.as('min_balance'),
      sql<string | null>`a.auto_deposit_amount::text`.as('deposit_amount'),
      ledgerBalance().as('balance'),
      ledgerPending().as('amount_pending'),
    ])
    .where('a.id', '=', accountId)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    ...toSummary(row),
    balance: Number(row.balance),
    amountPending: Number(row.amount_pending),
    owner: { email: row.owner_email },
    userRoles: await listUserRoles(db, accountId),
    setting: {
      autoDeposit: {
        autoDepositEnabled: row.auto_deposit_enabled,
        minBalance: row.min_balance === null ? null : Number(row.min_balance),
        autoDepositAmount: row.deposit_amount === null ? null : Number(row.deposit_amount),
      },
    },
  };
}

/**
 * The account's people: members oldest first, then pending invitations (roleName INVITED, their
 * own id, no name yet) so that the owner sees and can cancel them.
 */
export async function listUserRoles(db: Db, accountId: string): Promise<UserRole[]> {
  const [members, invitations] = await Promise.all([
    db
      .selectFrom('account_members as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select(['u.id', 'u.email', 'u.given_name', 'u.family_name', 'm.role_name'])
      .where('m.account_id', '=', accountId)
      .orderBy('m.created_at')
      .orderBy('u.email')
      .execute(),
    db
      .selectFrom('account_invitations')
      .select(['id', 'email'])
      .where('account_id', '=', accountId)
      .orderBy('created_at')
      .orderBy('email')
      .execute(),
  ]);
  return [
    ...members.map((r) => ({
      id: r.id,
      email: r.email,
      firstName: r.given_name,
      lastName: r.family_name,
      roleName: r.role_name,
    })),
    ...invitations.map((r) => ({ id: r.id, email: r.email, firstName: '', lastName: '', roleName: INVITED_ROLE })),
  ];
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

/** Of these accounts, the ones whose billing API is enabled (not suspended). */
export async function billingEnabledAccounts(db: Db, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('accounts')
    .select('id')
    .where('id', 'in', ids)
    .where('is_billing_api_enabled', '=', true)
    .execute();
  return new Set(rows.map((r) => r.id));
}
