import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { findDefaultCard } from '../cards/cards.service.ts';
import { availableCreditOf } from '../ledger/available-credit.ts';
import type { DepositService } from './deposit.service.ts';

/** Waits after the 1st, 2nd and 3rd (and later) declines in a row. */
const BACKOFF_HOURS = [1, 6, 24];

export interface AutoPayRun {
  charged: number;
  failed: number;
  /** Accounts that could not be processed this run (each on its own: the others still are). */
  errors: string[];
}

/**
 * Auto pay (spec A §4): when an enabled account's available credit is below its threshold, charge
 * the default card its amount as DEPOSIT_AUTO, once per crossing. The crossing's key is saved
 * before the charge, so a run after a crash charges with the same key. A decline backs off and
 * tells the account owner by e-mail. Safe to run from several processes at once.
 */
export async function runAutoPay(deps: {
  db: Db;
  deposits: DepositService;
  mailer: Mailer;
  productName: string;
}): Promise<AutoPayRun> {
  const { db } = deps;
  const accounts = await db
    .selectFrom('accounts as a')
    .innerJoin('users as owner', 'owner.id', 'a.created_by')
    .select([
      'a.id',
      'a.name',
      'a.customer_id',
      'a.auto_deposit_armed',
      'a.auto_deposit_failures',
      'a.auto_deposit_key',
      sql<string>`a.auto_deposit_amount::text`.as('amount'),
      'owner.email',
      sql<boolean>`${availableCreditOf('a.id')} < a.auto_deposit_min_balance`.as('below'),
    ])
    .where('a.auto_deposit_enabled', '=', true)
    .where((eb) =>
      eb.or([eb('a.auto_deposit_retry_at', 'is', null), eb('a.auto_deposit_retry_at', '<=', sql<Date>`now()`)]),
    )
    .execute();

  const run: AutoPayRun = { charged: 0, failed: 0, errors: [] };
  for (const account of accounts) {
    try {
      await processAccount(deps, account, run);
    } catch (error) {
      run.errors.push(`${account.id}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return run;
}

type AutoPayAccount = {
  id: string;
  name: string;
  customer_id: string | null;
  auto_deposit_armed: boolean;
  auto_deposit_failures: number;
  auto_deposit_key: string | null;
  amount: string;
  email: string;
  below: boolean;
};

async function processAccount(
  deps: { db: Db; deposits: DepositService; mailer: Mailer; productName: string },
  account: AutoPayAccount,
  run: AutoPayRun,
): Promise<void> {
  const { db } = deps;
  // What the list read may be stale by now (another run may have charged, or credit moved): each
  // change below holds only if the account is still on the side of the threshold it was read on.
  const below = sql<boolean>`${availableCreditOf('accounts.id')} < auto_deposit_min_balance`;
  if (!account.below) {
    // Back at the threshold: arm for the next crossing and forget what the last one left.
    if (!account.auto_deposit_armed || account.auto_deposit_failures > 0 || account.auto_deposit_key) {
      await db
        .updateTable('accounts')
        .set({
          auto_deposit_armed: true,
          auto_deposit_key: null,
          auto_deposit_failures: 0,
          auto_deposit_retry_at: null,
        })
        .where('id', '=', account.id)
        .where(sql<boolean>`not ${below}`)
        .execute();
    }
    return;
  }
  if (!account.auto_deposit_armed) return;

  // Claimed only while still eligible, so an overlapping run cannot start a second crossing.
  const claimed = await db
    .updateTable('accounts')
    .set({ auto_deposit_key: sql`coalesce(auto_deposit_key, ${`autopay:${account.id}:${randomUUID()}`})` })
    .where('id', '=', account.id)
    .where('auto_deposit_enabled', '=', true)
    .where('auto_deposit_armed', '=', true)
    .where((eb) => eb.or([eb('auto_deposit_key', 'is not', null), below]))
    .where((eb) =>
      eb.or([eb('auto_deposit_retry_at', 'is', null), eb('auto_deposit_retry_at', '<=', sql<Date>`now()`)]),
    )
    .returning('auto_deposit_key')
    .executeTakeFirst();
  const key = claimed?.auto_deposit_key;
  if (!key) return;

  const card = await findDefaultCard(db, account.id);
  const amount = Number(account.amount);
  let failure: string | undefined;
  if (!card || !account.customer_id) failure = 'There is no default payment card to charge.';
  else {
    const row = await deps.deposits.post({
      accountId: account.id,
      cardId: card.id,
      token: card.providerToken,
      customerId: account.customer_id,
      amount,
      key,
      type: 'DEPOSIT_AUTO',
    });
    if (row.status === 'FAILED') failure = String(row.metadata.failure ?? 'Your card was declined.');
  }

  if (!failure) {
    await db
      .updateTable('accounts')
      .set({ auto_deposit_armed: false, auto_deposit_key: null, auto_deposit_failures: 0, auto_deposit_retry_at: null })
      .where('id', '=', account.id)
      .where('auto_deposit_key', '=', key)
      .execute();
    run.charged += 1;
    return;
  }
  const failures = account.auto_deposit_failures + 1;
  const hours = BACKOFF_HOURS[Math.min(failures, BACKOFF_HOURS.length) - 1] ?? 24;
  const backedOff = await db
    .updateTable('accounts')
    .set({
      auto_deposit_key: null,
      auto_deposit_failures: failures,
      auto_deposit_retry_at: sql`now() + make_interval(hours => ${hours})`,
    })
    .where('id', '=', account.id)
    .where('auto_deposit_key', '=', key)
    .executeTakeFirst();
  // Only the run that ended this crossing tells the owner.
  if (Number(backedOff.numUpdatedRows) === 0) return;
  await deps.mailer.send({
    to: account.email,
    subject: `Your ${deps.productName} auto pay payment failed`,
    text: `We could not charge ${amount} USD to the default card of the account "${account.name}": ${failure} We will try again in ${hours} hours. You can buy credits or change the card in the console at any time.`,
  });
  run.failed += 1;
}
