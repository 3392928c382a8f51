import { type AccountSummary, RPC_NETWORKS } from '@ebs/contract';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../db/database.ts';
import { Client } from '../../testing/client.ts';
import { crashTarget, preferredCrashTarget } from '../../testing/crash-kit.ts';
import { ledgerViolations } from '../../testing/ledger-invariants.ts';
import { until } from '../../testing/poll.ts';
import { reportFigures } from '../../testing/report.ts';

/** Accounts with usage on each of DAYS closed days: many batches of the billing job (500 account-days each). */
const ACCOUNTS = 1000;
const DAYS = 20;
/** Each account-day: 1000 requests at 0.001 USD, one USD. */
const USAGE = 1000;
const UNIT_PRICE = '0.001';
const RESOURCE = RPC_NETWORKS[0]?.resource ?? 'ETHEREUM_MAINNET';

describe(`the billing job killed mid-run over many accounts (${preferredCrashTarget})`, () => {
  it('bills every account-day once after the restart: the batches committed stay, the rest are billed', {
    timeout: 120_000,
  }, async () => {
    const target = await crashTarget(preferredCrashTarget);
    try {
      // The accounts' owner, signed up through the first process, which makes the database.
      const first = await target.start();
      const client = new Client(first.url);
      const { userId } = await client.signUp();
      const own = (
        await client.post<AccountSummary>('/api/v1.0/account', { accountName: 'Own' }, { 'ebs-account-id': '' })
      ).body.data.id;
      expect(await first.stop()).toBe(0);

      await target.inspect(async (db) => {
        await sql`insert into accounts (name, created_by, is_draft)
          select 'Billed ' || g, ${userId}, false from generate_series(1, ${ACCOUNTS}) g`.execute(db);
        await sql`insert into account_resource_usage (account_id, api_key_id, resource_name, date, usage, unit_price)
          select a.id, null, ${RESOURCE}, (current_date - d)::date, ${USAGE}, ${UNIT_PRICE}::numeric
          from accounts a cross join generate_series(1, ${DAYS}) d where a.name like 'Billed %'`.execute(db);
        await sql`insert into account_resource_usage (account_id, api_key_id, resource_name, date, usage, unit_price)
          values (${own}, null, ${RESOURCE}, (current_date - ${DAYS + 5}::int)::date, ${USAGE}, ${UNIT_PRICE}::numeric)`.execute(
          db,
        );
      });
      const accountDays = ACCOUNTS * DAYS + 1;

      const jobs = { JOBS_INTERVAL_SECONDS: '1' };
      const billedDays = (db: Db) =>
        sql<{ billed: string; open: string }>`select
          count(distinct (account_id, date)) filter (where status = 'BILLED')::text as billed,
          count(distinct (account_id, date)) filter (where status = 'PENDING')::text as open
          from account_resource_usage`
          .execute(db)
          .then((r) => ({ billed: Number(r.rows[0]?.billed), open: Number(r.rows[0]?.open) }));
      // The first run starts a second after the process listens. PostgreSQL shows its committed
      // batches meanwhile; PGlite's one connection answers nothing else until the run ends, so there
      // the process is killed after a time, later on each try, until a kill lands mid-run.
      let atKill = { billed: 0, open: accountDays };
      let kills = 0;
      for (let delayMs = 1500; atKill.billed === 0; delayMs += 500) {
        if (delayMs > 5000) throw new Error('no kill landed in the billing run');
        const running = await target.start(jobs);
        if (target.name === 'postgres') {
          await until('the first batch billed', async () => (await target.inspect(billedDays)).billed > 0);
        } else await new Promise((resolve) => setTimeout(resolve, delayMs));
        await running.crash();
        kills += 1;
        atKill = await target.inspect(billedDays);
      }
      expect(atKill.open).toBeGreaterThan(0);
      expect(atKill.billed + atKill.open).toBe(accountDays);

      const third = await target.start(jobs);
      const expected = (-DAYS).toFixed(6);
      await until(
        'every account billed',
        async () => {
          const accounts = (await target.admin(third, ['accounts', 'list'])) as Array<{
            name: string;
            balance: string;
          }>;
          const billed = accounts.filter((a) => a.name.startsWith('Billed '));
          return billed.length === ACCOUNTS && billed.every((a) => Number(a.balance) <= Number(expected));
        },
        60_000,
      );
      expect(await third.stop()).toBe(0);

      const after = await target.inspect(async (db) => {
        const days = await billedDays(db);
        const withdrawals = await sql<{ rows: string; keys: string; unlinked: string; wrong: string }>`select
          count(*)::text as rows,
          count(distinct (account_id, metadata->>'date'))::text as keys,
          (select count(*) from account_resource_usage u where u.transaction_id is null)::text as unlinked,
          count(*) filter (where amount <> -1)::text as wrong
          from account_transactions where type = 'WITHDRAW_RESOURCE_USAGE'`.execute(db);
        return { days, withdrawals: withdrawals.rows[0], violations: await ledgerViolations(db, { settled: true }) };
      });
      expect(after.days).toEqual({ billed: accountDays, open: 0 });
      expect(after.withdrawals).toEqual({
        rows: String(accountDays),
        keys: String(accountDays),
        unlinked: '0',
        wrong: '0',
      });
      expect(after.violations).toEqual([]);
      reportFigures('crashes', {
        scenario: 'billing run',
        database: preferredCrashTarget,
        kills,
        billedAccountDays: accountDays,
        billedBeforeKill: atKill.billed,
        duplicates: Number(after.withdrawals?.rows) - Number(after.withdrawals?.keys),
        lost: after.days.open,
      });
    } finally {
      await target.drop();
    }
  });
});
