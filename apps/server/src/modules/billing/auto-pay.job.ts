import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { findDefaultCard } from '../cards/cards.store.ts';
import type { Mailer } from '../identity/mailer.ts';
import type { DepositService } from './deposit.service.ts';

/** Waits after the 1st, 2nd and 3rd (and later) declines in a row. */
const BACKOFF_HOURS = [1, 6, 24];

export interface AutoPayRun {
  charged: number;
  failed: number;
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
      sql<string>`a.auto_deposit_amount::text`.as('amount'),
      'owner.email',
      sql<boolean>`(select coalesce(sum(t.amount) filter (where t.status = 'COMPLETED'), 0)
          + coalesce(sum(t.amount) filter (where t.status = 'PENDING' and t.amount < 0), 0)
        from account_transactions t where t.account_id = a.id) < a.auto_deposit_min_balance`.as('below'),
    ])
    .where('a.auto_deposit_enabled', '=', true)
    .where((eb) =>
      eb.or([eb('a.auto_deposit_retry_at', 'is', null), eb('a.auto_deposit_retry_at', '<=', sql<Date>`now()`)]),
    )
    .execute();

  const run: AutoPayRun = { charged: 0, failed: 0 };
  for (const account of accounts) {
    if (!account.below) {
      if (!account.auto_deposit_armed || account.auto_deposit_failures > 0) {
        await db
          .updateTable('accounts')
          .set({
            auto_deposit_armed: true,
            auto_deposit_key: null,
            auto_deposit_failures: 0,
            auto_deposit_retry_at: null,
          })
          .where('id', '=', account.id)
          .execute();
      }
      continue;
    }
    if (!account.auto_deposit_armed) continue;

    const { auto_deposit_key: key } = await db
      .updateTable('accounts')
      .set({ auto_deposit_key: sql`coalesce(auto_deposit_key, ${`autopay:${account.id}:${randomUUID()}`})` })
      .where('id', '=', account.id)
      .returning('auto_deposit_key')
      .executeTakeFirstOrThrow();
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
        key: key ?? '',
        type: 'DEPOSIT_AUTO',
      });
      if (row.status === 'FAILED') failure = String(row.metadata.failure ?? 'Your card was declined.');
    }

    if (!failure) {
      await db
        .updateTable('accounts')
        .set({
          auto_deposit_armed: false,
          auto_deposit_key: null,
          auto_deposit_failures: 0,
          auto_deposit_retry_at: null,
        })
        .where('id', '=', account.id)
        .execute();
      run.charged += 1;
      continue;
    }
    const failures = account.auto_deposit_failures + 1;
    const hours = BACKOFF_HOURS[Math.min(failures, BACKOFF_HOURS.length) - 1] ?? 24;
    await db
      .updateTable('accounts')
      .set({
        auto_deposit_key: null,
        auto_deposit_failures: failures,
        auto_deposit_retry_at: sql`now() + make_interval(hours => ${hours})`,
      })
      .where('id', '=', account.id)
      .execute();
    await deps.mailer.send({
      to: account.email,
      subject: `Your ${deps.productName} auto pay payment failed`,
      text: `We could not charge ${amount} USD to the default card of the account "${account.name}": ${failure} We will try again in ${hours} hours. You can buy credits or change the card in the console at any time.`,
    });
    run.failed += 1;
  }
  return run;
}
