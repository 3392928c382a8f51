import { type KyselyPlugin, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../db/database.ts';
import { ownerWithCard } from '../../testing/cards.ts';
import { testDatabases } from '../../testing/databases.ts';
import { ledgerViolations } from '../../testing/ledger-invariants.ts';
import { serverFor } from '../../testing/server.ts';
import { runAutoPay } from './auto-pay.job.ts';
import type { DepositService } from './deposit.service.ts';

/** A deposit service whose first charge waits until released: a run held up mid-way, as a slow process is. */
function heldDeposits(real: DepositService) {
  let reached = () => {};
  let release = () => {};
  const reachedCharge = new Promise<void>((resolve) => {
    reached = resolve;
  });
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const deposits = {
    async post(input: Parameters<DepositService['post']>[0]) {
      reached();
      await released;
      return real.post(input);
    },
  } as DepositService;
  return { deposits, reachedCharge, release };
}

/** The database as a run sees it whose first read (its list of accounts) is answered only when released. */
function heldList(db: Db) {
  let read = () => {};
  let release = () => {};
  const listRead = new Promise<void>((resolve) => {
    read = resolve;
  });
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let first = true;
  const plugin: KyselyPlugin = {
    transformQuery: (args) => args.node,
    async transformResult(args) {
      if (first) {
        first = false;
        read();
        await released;
      }
      return args.result;
    },
  };
  return { db: db.withPlugin(plugin), listRead, release };
}

describe.each(testDatabases)('auto pay runs that overlap on $name', (database) => {
  const server = serverFor(database);
  const run = (deposits = server().deps.deposits, db = server().db) =>
    runAutoPay({ db, deposits, mailer: server().deps.mailer, productName: 'EBS Console' });

  const autoPayAccount = async () => {
    const o = await ownerWithCard(server().url);
    for (const fields of [{ autoDepositEnabled: true }, { minBalance: 20, autoDepositAmount: 50 }]) {
      await o.c.post('/api/v1.0/account/updateAccountSettings', { settingName: 'autoDeposit', fields }, o.h);
    }
    return o;
  };

  const autoDeposits = async (accountId: string) =>
    (
      await sql<{ amount: string }>`select amount::text from account_transactions
        where account_id = ${accountId} and type = 'DEPOSIT_AUTO'`.execute(server().db)
    ).rows;

  it('charges a crossing once when a slow run acts on what it read before others settled and re-armed it', async () => {
    const accounts = [await autoPayAccount(), await autoPayAccount()];
    // The slow run reads both accounts below the threshold, then stalls on its first charge.
    const held = heldDeposits(server().deps.deposits);
    const slow = run(held.deposits);
    await held.reachedCharge;
    // Meanwhile another run charges both, and a third sees them above the threshold and re-arms them.
    expect((await run()).charged).toBe(2);
    expect((await run()).charged).toBe(0);
    held.release();
    expect((await slow).errors).toEqual([]);

    for (const o of accounts) {
      expect(await autoDeposits(o.accountId)).toEqual([{ amount: '50.000000' }]);
      expect((await o.c.get<{ balance: number }>('/api/v1.0/account/details', o.h)).body.data.balance).toBe(50);
    }
    expect(await ledgerViolations(server().db, { settled: true })).toEqual([]);
  });

  // The stalled read keeps its connection, and PGlite has one: only PostgreSQL can go on beside it.
  it.skipIf(database.name === 'pglite')(
    'leaves a charge in flight alone when a slow run re-arms from what it read before the threshold rose',
    async () => {
      const o = await autoPayAccount();
      await run();
      expect(await autoDeposits(o.accountId)).toHaveLength(1);
      // The slow run reads the account charged and above its threshold (50 of 20), then stalls.
      const slow = heldList(server().db);
      const slowRun = run(server().deps.deposits, slow.db);
      await slow.listRead;
      await run();
      // The threshold rises above the credit: a new crossing, which one run starts to charge.
      await o.c.post(
        '/api/v1.0/account/updateAccountSettings',
        { settingName: 'autoDeposit', fields: { minBalance: 80, autoDepositAmount: 50 } },
        o.h,
      );
      const charging = heldDeposits(server().deps.deposits);
      const chargingRun = run(charging.deposits);
      await charging.reachedCharge;
      // The slow run goes on, and a further run comes while the charge is still in flight.
      slow.release();
      expect((await slowRun).errors).toEqual([]);
      await run();
      charging.release();
      expect((await chargingRun).errors).toEqual([]);

      expect(await autoDeposits(o.accountId)).toEqual([{ amount: '50.000000' }, { amount: '50.000000' }]);
      expect((await o.c.get<{ balance: number }>('/api/v1.0/account/details', o.h)).body.data.balance).toBe(100);
      expect(await ledgerViolations(server().db, { settled: true })).toEqual([]);
    },
  );
});
