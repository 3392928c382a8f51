import type { AccountDetails } from '@ebs/contract';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../../app/commands.ts';
import { ledgerViolations } from '../../testing/ledger-invariants.ts';
import {
  type MoneyCluster,
  openPayingAccount,
  type PayingAccount,
  type PersonClient,
  startMoneyCluster,
} from '../../testing/money-cluster.ts';
import { MoneyModel, moneyOperation, runOperation } from '../../testing/money-operations.ts';
import { reportFigures } from '../../testing/report.ts';
import { usagePriceOf } from '../usage/index.ts';

const adminUrl = process.env.TEST_DATABASE_URL ?? '';
/** Interleavings tried; `MONEY_RUNS=200 MONEY_SEED=… npm run …` for a longer or another search. */
const RUNS = Number(process.env.MONEY_RUNS ?? 20);
const SEED = Number(process.env.MONEY_SEED ?? 20261122);
const PROCESSES = 3;
const RUNNERS = 3;
const ACCOUNTS = 4;

interface AccountFigures {
  accountId: string;
  balance: string;
  pending: string;
  oneTimeCents: string;
  manualCents: string;
  autoDeposits: number;
  usage: string;
}

/** What the database holds per account, summed from the rows themselves. */
async function accountFigures(cluster: MoneyCluster, accountIds: string[]): Promise<Map<string, AccountFigures>> {
  const { rows } = await sql<AccountFigures>`
    select a.id as "accountId",
      coalesce((select sum(amount) from account_transactions t where t.account_id = a.id and t.status = 'COMPLETED'), 0)::text
        as balance,
      (coalesce((select -sum(amount) from account_transactions t
          where t.account_id = a.id and t.status = 'PENDING' and t.amount < 0), 0)
        + coalesce((select sum(${usagePriceOf('u')}) from account_resource_usage u
          where u.account_id = a.id and u.status = 'PENDING'), 0))::text as pending,
      coalesce((select sum(amount) * 100 from account_transactions t where t.account_id = a.id
        and t.type = 'DEPOSIT_ONE_TIME' and t.status = 'COMPLETED'), 0)::text as "oneTimeCents",
      coalesce((select sum(amount) * 100 from account_transactions t where t.account_id = a.id
        and t.type = 'ADMIN_MANUAL_DEPOSIT'), 0)::text as "manualCents",
      (select count(*)::int from account_transactions t where t.account_id = a.id and t.type = 'DEPOSIT_AUTO')
        as "autoDeposits",
      coalesce((select sum(usage) from account_resource_usage u where u.account_id = a.id), 0)::text as usage
    from accounts a where a.id = any(${accountIds}::uuid[])`.execute(cluster.db);
  return new Map(rows.map((r) => [r.accountId, r]));
}

async function welcomeCredits(cluster: MoneyCluster, userIds: string[]): Promise<Map<string, number>> {
  const { rows } = await sql<{ user_id: string; n: number }>`
    select u.id as user_id, count(t.id)::int as n from users u
    left join account_transactions t on t.idempotency_key = 'welcome-credit:' || u.id and t.type = 'WELCOME_CREDIT'
    where u.id = any(${userIds}::uuid[]) group by u.id`.execute(cluster.db);
  return new Map(rows.map((r) => [r.user_id, r.n]));
}

describe.skipIf(!adminUrl)('money under concurrency on PostgreSQL', () => {
  let cluster: MoneyCluster;
  let accounts: PayingAccount[] = [];
  const model = new MoneyModel();

  beforeAll(async () => {
    cluster = await startMoneyCluster({
      adminUrl,
      redisUrl: process.env.TEST_REDIS_URL,
      processes: PROCESSES,
      runners: RUNNERS,
    });
    accounts = await Promise.all(
      Array.from({ length: ACCOUNTS }, (_, i) =>
        openPayingAccount(cluster.processes[i % PROCESSES]?.url ?? '', `money ${i}`),
      ),
    );
    for (const account of accounts) {
      // Credit to start with, so the gateway serves every account.
      await runCommand(cluster.db, ['deposit', '--account', account.accountId, '--amount', '5', '--note', 'start']);
      model.add(model.manualCents, account.accountId, 500);
    }
    // One account pays with the card that is declined until someone makes the other one default.
    const declining = accounts[ACCOUNTS - 1];
    if (declining) {
      const answer = await declining.owner.post(
        '/api/v1.0/payment/card/default',
        { cardId: declining.cards.declining },
        { 'ebs-account-id': declining.accountId },
      );
      expect(answer.status).toBe(200);
      model.defaultCard.set(declining.accountId, 'declining');
    }
  }, 180_000);

  afterAll(async () => {
    await cluster?.close();
  });

  const owners = () => [
    ...accounts.map((a) => ({ accountId: a.accountId, userId: a.userId, owner: a.owner })),
    ...model.newAccounts,
  ];

  /** Everything the API, the ledger, the processor and the usage records say, held to each other and to the model. */
  async function checkMoney(): Promise<void> {
    expect(model.unexpected).toEqual([]);
    const all = owners();
    const ids = all.map((o) => o.accountId);
    // The gateway's counts reach the database at its next flush (every 0.2 s).
    await expect
      .poll(
        async () => {
          const figures = await accountFigures(cluster, ids);
          return ids.filter((id) => {
            const expected = (model.meteredCalls.get(id) ?? 0) + (model.insertedUsage.get(id) ?? 0);
            return Number(figures.get(id)?.usage ?? 0) !== expected;
          });
        },
        { timeout: 15_000, interval: 200 },
      )
      .toEqual([]);

    expect(await ledgerViolations(cluster.db, { settled: true })).toEqual([]);

    const figures = await accountFigures(cluster, ids);
    for (const [i, { accountId, owner }] of all.entries()) {
      const url = cluster.processes[i % PROCESSES]?.url ?? '';
      const details = await (owner as PersonClient)
        .at(url)
        .get<AccountDetails>('/api/v1.0/account/details', { 'ebs-account-id': accountId });
      const held = figures.get(accountId);
      expect({ accountId, balance: details.body.data.balance, amountPending: details.body.data.amountPending }).toEqual(
        {
          accountId,
          balance: Number(held?.balance),
          amountPending: Number(held?.pending),
        },
      );
      const paid = [...(model.paid.get(accountId)?.values() ?? [])].reduce((sum, p) => sum + p.amount * 100, 0);
      expect({ accountId, oneTime: Number(held?.oneTimeCents), manual: Number(held?.manualCents) }).toEqual({
        accountId,
        oneTime: paid,
        manual: model.manualCents.get(accountId) ?? 0,
      });
      // One auto deposit per crossing below the threshold; only limit changes and usage start one.
      expect(held?.autoDeposits ?? 0).toBeLessThanOrEqual(1 + (model.crossings.get(accountId) ?? 0));
    }

    const credits = await welcomeCredits(
      cluster,
      all.map((o) => o.userId),
    );
    for (const { userId } of all) {
      expect({ userId, credits: credits.get(userId) }).toEqual({ userId, credits: model.welcomed.has(userId) ? 1 : 0 });
      expect(model.welcomed.get(userId) ?? 0).toBeLessThanOrEqual(1);
    }
  }

  it(
    'keeps balances, ledger, charges and usage in step through random interleavings across processes',
    async () => {
      let interleavings = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.array(moneyOperation(ACCOUNTS, PROCESSES, RUNNERS), { minLength: 4, maxLength: 12 }),
          async (operations) => {
            interleavings += 1;
            await Promise.all(operations.map((op) => runOperation(cluster, accounts, model, op)));
            await checkMoney();
          },
        ),
        // Each run changes the shared database: a failure is reported as found, not shrunk.
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );

      // Every job in every runner at the same moment, twice, then the books once more.
      for (let round = 0; round < 2; round++) {
        await Promise.all(
          cluster.runners.flatMap((runner) =>
            ['autopay', 'billing'].map((job) => runCommand(runner.db, ['jobs', 'run', job], runner.jobs)),
          ),
        );
      }
      await checkMoney();

      const { rows } = await sql<{ charges: number; ledger_rows: number }>`
        select (select count(*)::int from processor_charges) as charges,
          (select count(*)::int from account_transactions) as ledger_rows`.execute(cluster.db);
      reportFigures('money under concurrency', {
        processes: PROCESSES,
        interleavings,
        operations: Object.values(model.operations).reduce((n, k) => n + k, 0),
        deposits: model.depositRequests,
        paid: model.depositAnswers[200] ?? 0,
        declined: model.depositAnswers[402] ?? 0,
        refused: model.depositAnswers[400] ?? 0,
        charges: rows[0]?.charges ?? 0,
        ledgerRows: rows[0]?.ledger_rows ?? 0,
        violations: (await ledgerViolations(cluster.db, { settled: true })).length,
      });
    },
    60_000 + RUNS * 15_000,
  );
});
