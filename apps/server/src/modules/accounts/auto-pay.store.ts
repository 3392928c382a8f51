import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { availableCreditOf } from '../ledger/index.ts';

/**
 * The auto pay columns of `accounts` (spec A §4-§5), for billing's auto pay: its settings, and the
 * state of a crossing below the threshold (armed, the charge's key, failures, when to retry).
 */

/** An account's auto pay settings as stored: amounts as decimal text, null while never set. */
export interface AutoPaySettings {
  enabled: boolean;
  minBalance: string | null;
  amount: string | null;
}

/** A change of the auto pay settings: the fields given are saved, the others kept. */
export interface AutoPaySettingsChange {
  enabled?: boolean;
  minBalance?: number | string;
  amount?: number | string;
}

/** An account whose auto pay is due a look: on, and not waiting for a retry. */
export interface AutoPayCandidate {
  id: string;
  name: string;
  customer_id: string | null;
  owner_id: string;
  auto_deposit_armed: boolean;
  auto_deposit_failures: number;
  auto_deposit_key: string | null;
  /** The amount to charge, as decimal text. */
  amount: string;
  /** What Auto Pay may deposit a calendar month (decimal text), or null for no limit. */
  monthly_max: string | null;
  /** Whether the available credit is below the threshold. */
  below: boolean;
}

/** Whether the account's available credit is below its threshold (for statements on `accounts`). */
const below = sql<boolean>`${availableCreditOf('accounts.id')} < auto_deposit_min_balance`;

/** The account's auto pay settings; throws when there is no such account. */
export async function findAutoPaySettings(db: Db, accountId: string): Promise<AutoPaySettings> {
  const row = await db
    .selectFrom('accounts')
    .select(['auto_deposit_enabled', 'auto_deposit_min_balance', 'auto_deposit_amount'])
    .where('id', '=', accountId)
    .executeTakeFirstOrThrow();
  return {
    enabled: row.auto_deposit_enabled,
    minBalance: row.auto_deposit_min_balance,
    amount: row.auto_deposit_amount,
  };
}

/** Saves the given auto pay settings of the account, in one statement. */
export async function updateAutoPaySettings(db: Db, accountId: string, change: AutoPaySettingsChange): Promise<void> {
  await db
    .updateTable('accounts')
    .set({
      ...(change.enabled === undefined ? {} : { auto_deposit_enabled: change.enabled }),
      ...(change.minBalance === undefined ? {} : { auto_deposit_min_balance: change.minBalance }),
      ...(change.amount === undefined ? {} : { auto_deposit_amount: change.amount }),
    })
    .where('id', '=', accountId)
    .execute();
}

/** The accounts with auto pay on and no retry pending, with their owner's id and side of the threshold. */
export async function listAutoPayCandidates(db: Db): Promise<AutoPayCandidate[]> {
  return db
    .selectFrom('accounts as a')
    .select([
      'a.id',
      'a.name',
      'a.customer_id',
      'a.created_by as owner_id',
      'a.auto_deposit_armed',
      'a.auto_deposit_failures',
      'a.auto_deposit_key',
      sql<string>`a.auto_deposit_amount::text`.as('amount'),
      sql<string | null>`a.auto_pay_monthly_max_usd::text`.as('monthly_max'),
      sql<boolean>`${availableCreditOf('a.id')} < a.auto_deposit_min_balance`.as('below'),
    ])
    .where('a.auto_deposit_enabled', '=', true)
    .where((eb) =>
      eb.or([eb('a.auto_deposit_retry_at', 'is', null), eb('a.auto_deposit_retry_at', '<=', sql<Date>`now()`)]),
    )
    .execute();
}

/**
 * Back at the threshold: arms auto pay for the next crossing and forgets what the last one left,
 * only while the account is still not below it.
 */
export async function rearmAutoPay(db: Db, accountId: string): Promise<void> {
  await db
    .updateTable('accounts')
    .set({ auto_deposit_armed: true, auto_deposit_key: null, auto_deposit_failures: 0, auto_deposit_retry_at: null })
    .where('id', '=', accountId)
    .where(sql<boolean>`not ${below}`)
    .execute();
}

/**
 * Starts (or resumes) a crossing: saves `newKey` as its charge's key unless one is saved already,
 * only while auto pay is on, armed, due and (for a new crossing) still below the threshold.
 * Answers the key that stands, or undefined when the account is no longer eligible.
 */
export async function claimAutoPayCrossing(db: Db, accountId: string, newKey: string): Promise<string | undefined> {
  const claimed = await db
    .updateTable('accounts')
    .set({ auto_deposit_key: sql`coalesce(auto_deposit_key, ${newKey})` })
    .where('id', '=', accountId)
    .where('auto_deposit_enabled', '=', true)
    .where('auto_deposit_armed', '=', true)
    .where((eb) => eb.or([eb('auto_deposit_key', 'is not', null), below]))
    .where((eb) =>
      eb.or([eb('auto_deposit_retry_at', 'is', null), eb('auto_deposit_retry_at', '<=', sql<Date>`now()`)]),
    )
    .returning('auto_deposit_key')
    .executeTakeFirst();
  return claimed?.auto_deposit_key ?? undefined;
}

/**
 * A crossing's charge would pass the monthly limit: no charge, and no look again before `until`.
 * Not a failure (none is counted), and only while no crossing is under way (no key saved).
 */
export async function deferAutoPay(db: Db, accountId: string, until: Date): Promise<void> {
  await db
    .updateTable('accounts')
    .set({ auto_deposit_retry_at: until })
    .where('id', '=', accountId)
    .where('auto_deposit_key', 'is', null)
    .execute();
}

/** The crossing's charge went through: disarms until the credit is back at the threshold. */
export async function endAutoPayCrossing(db: Db, accountId: string, key: string): Promise<void> {
  await db
    .updateTable('accounts')
    .set({ auto_deposit_armed: false, auto_deposit_key: null, auto_deposit_failures: 0, auto_deposit_retry_at: null })
    .where('id', '=', accountId)
    .where('auto_deposit_key', '=', key)
    .execute();
}

/**
 * The crossing's charge failed: counts the failure and waits `hours` before the next try. False
 * when another run already ended this crossing (the key is no longer the account's).
 */
export async function backOffAutoPay(
  db: Db,
  accountId: string,
  key: string,
  failures: number,
  hours: number,
): Promise<boolean> {
  const backedOff = await db
    .updateTable('accounts')
    .set({
      auto_deposit_key: null,
      auto_deposit_failures: failures,
      auto_deposit_retry_at: sql`now() + make_interval(hours => ${hours})`,
    })
    .where('id', '=', accountId)
    .where('auto_deposit_key', '=', key)
    .executeTakeFirst();
  return Number(backedOff.numUpdatedRows) > 0;
}
