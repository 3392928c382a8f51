import type { AccountDetails, ResourceUsageList, TransactionList } from '@ebs/contract';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { runCommand } from '../../app/commands.ts';
import type { Db } from '../../db/database.ts';
import { openDatabase } from '../../db/database.ts';
import { testDatabases } from '../../testing/databases.ts';
import { accountWithKey, type KeyHolder } from '../../testing/keys.ts';
import { serverFor } from '../../testing/server.ts';
import { addUsage, utcDay } from '../usage/usage.service.ts';
import { billUsage } from './usage-billing.job.ts';

const TODAY = utcDay(new Date());
const YESTERDAY = utcDay(new Date(Date.now() - 86_400_000));

describe.each(testDatabases)('usage billing on $name', (database) => {
  const server = serverFor(database, { USAGE_FLUSH_SECONDS: '60' });

  const count = (holder: KeyHolder, resource: string, date: string, usage: number, computeUnits = usage) =>
    addUsage(server().db, [
      { accountId: holder.accountId, apiKeyId: holder.keyId, resource, date, usage, computeUnits },
    ]);

  const details = async (holder: KeyHolder) =>
    (await holder.client.get<AccountDetails>('/api/v1.0/account/details', holder.headers)).body.data;

  const withdrawals = async (holder: KeyHolder) =>
    (
      await holder.client.get<TransactionList>(
        '/api/v1.0/transaction?limit=100&offset=0&typeIn=%5B%22WITHDRAW_RESOURCE_USAGE%22%5D',
        holder.headers,
      )
    ).body.data.transactions;

  it('counts unbilled usage as pending, then posts one withdrawal per account and day, once', async () => {
    const holder = await accountWithKey(server().url, server().db, '10');
    await count(holder, 'RPC_API_ETHEREUM_MAINNET', YESTERDAY, 1000);
    await count(holder, 'RPC_API_POLYGON_MAINNET', YESTERDAY, 500);
    await count(holder, 'RPC_API_POLYGON_MAINNET', YESTERDAY, 250);
    await count(holder, 'RPC_API_ETHEREUM_MAINNET', TODAY, 100);
    expect(await details(holder)).toMatchObject({ balance: 10, amountPending: 0.037 });

    // The schedule bills closed days only: yesterday's 1750 requests × 0.00002.
    const runs = await Promise.all([
      billUsage(server().db, { includeToday: false }),
      billUsage(server().db, { includeToday: false }),
    ]);
    expect(runs.reduce((n, r) => n + r.transactions, 0)).toBe(1);
    expect(await withdrawals(holder)).toMatchObject([
      {
        type: 'WITHDRAW_RESOURCE_USAGE',
        amount: -0.035,
        status: 'COMPLETED',
        metadata: { date: YESTERDAY, usage: 1750 },
      },
    ]);
    expect(await details(holder)).toMatchObject({ balance: 9.965, amountPending: 0.002 });
    expect((await billUsage(server().db, { includeToday: false })).transactions).toBe(0);

    // An operator's run bills today so far; later calls of today open a new record.
    expect((await billUsage(server().db, { includeToday: true })).transactions).toBe(1);
    await count(holder, 'RPC_API_ETHEREUM_MAINNET', TODAY, 50);
    const usage = await holder.client.get<ResourceUsageList>(
      `/api/v1.0/usage/api/billing?accountId=${holder.accountId}&limit=10&offset=0&order=desc`,
      holder.headers,
    );
    expect(usage.body.data.totalCount).toBe(4);
    expect(
      usage.body.data.accountResourceUsage.map((r) => [r.date, r.resourceName, r.usage, r.status, r.price]),
    ).toEqual([
      [TODAY, 'RPC_API_ETHEREUM_MAINNET', 50, 'PENDING', 0.001],
      [TODAY, 'RPC_API_ETHEREUM_MAINNET', 100, 'BILLED', 0.002],
      [YESTERDAY, 'RPC_API_POLYGON_MAINNET', 750, 'BILLED', 0.015],
      [YESTERDAY, 'RPC_API_ETHEREUM_MAINNET', 1000, 'BILLED', 0.02],
    ]);
    expect(await details(holder)).toMatchObject({ balance: 9.963, amountPending: 0.001 });
    const ledger = await server()
      .db.selectFrom('account_transactions')
      .select(sql<string>`sum(amount)::text`.as('sum'))
      .where('account_id', '=', holder.accountId)
      .executeTakeFirstOrThrow();
    expect(Number(ledger.sum)).toBe(9.963);
  });

  it('bills at the price of the day the usage was first counted, as the admin set it', async () => {
    const holder = await accountWithKey(server().url, server().db, '10');
    const set = await runCommand(server().db, ['price', 'set', 'RPC_API_BSC_MAINNET', '1000']);
    expect(set.text).toBe('RPC_API_BSC_MAINNET now costs 1000 USD per million compute units (0.001 USD per unit)');
    await count(holder, 'RPC_API_BSC_MAINNET', YESTERDAY, 3);
    await runCommand(server().db, ['price', 'set', 'RPC_API_BSC_MAINNET', '20']);
    await count(holder, 'RPC_API_BSC_MAINNET', YESTERDAY, 2);
    await billUsage(server().db, { includeToday: false });
    expect((await withdrawals(holder)).map((t) => t.amount)).toEqual([-0.005]);
    await expect(runCommand(server().db, ['price', 'set', 'RPC_API_NOWHERE', '1'])).rejects.toThrow('Unknown resource');
    await expect(runCommand(server().db, ['price', 'set', 'RPC_API_BSC_MAINNET', 'free'])).rejects.toThrow(
      'USD must be',
    );
  });

  it("charges compute units × the price of one unit, to the ledger's 6 decimals, and token forwards per forward", async () => {
    const holder = await accountWithKey(server().url, server().db, '100');
    // 1 234 567 units at 20 USD per million (0.00002 a unit), whatever the number of calls.
    await count(holder, 'RPC_API_ETHEREUM_MAINNET', YESTERDAY, 1000, 1_234_000);
    await count(holder, 'RPC_API_ETHEREUM_MAINNET', YESTERDAY, 7, 567);
    await addUsage(server().db, [
      {
        accountId: holder.accountId,
        apiKeyId: null,
        resource: 'TOKEN_FORWARDING_ETHEREUM_SEPOLIA',
        date: YESTERDAY,
        usage: 2,
        computeUnits: null,
      },
    ]);
    // 24.69134 USD of calls, and two forwards at 0.05 USD each.
    expect(await details(holder)).toMatchObject({ amountPending: 24.79134 });
    await billUsage(server().db, { includeToday: false });
    expect(await withdrawals(holder)).toMatchObject([
      { amount: -24.79134, metadata: { date: YESTERDAY, usage: 1009, records: 2 } },
    ]);
    const ledger = await server()
      .db.selectFrom('account_transactions')
      .select(sql<string>`amount::text`.as('amount'))
      .where('account_id', '=', holder.accountId)
      .where('type', '=', 'WITHDRAW_RESOURCE_USAGE')
      .executeTakeFirstOrThrow();
    expect(ledger.amount).toBe('-24.791340');
  });

  it('suspends an account once unbilled usage takes its available credit to 0', async () => {
    const holder = await accountWithKey(server().url, server().db, '0.01');
    expect((await details(holder)).isBillingApiEnabled).toBe(true);
    await server().deps.rpc.meter.count(holder.accountId, holder.keyId, 'RPC_API_ETHEREUM_MAINNET', 500, 500);
    await server().deps.rpc.meter.flush();
    expect(await details(holder)).toMatchObject({
      isBillingApiEnabled: false,
      status: 'SUSPENDED',
      amountPending: 0.01,
    });
  });

  it('refuses bad usage queries and another account', async () => {
    const holder = await accountWithKey(server().url, server().db, '0');
    const other = await accountWithKey(server().url, server().db, '0');
    const get = (query: string, headers = holder.headers) =>
      holder.client.get(`/api/v1.0/usage/api/billing?${query}`, headers);
    const cases: Array<[string, string]> = [
      [`accountId=${other.accountId}`, 'accountId must be the account named in ebs-account-id.'],
      ['resourceNameIn=%5B%22RPC_API_NOWHERE%22%5D', 'resourceNameIn names an unknown resource: RPC_API_NOWHERE'],
      ['resourceNameIn=%5Bbroken', 'resourceNameIn must be a JSON array of resources'],
      ['dateStart=2026-02-30', 'dateStart must be a date written YYYY-MM-DD'],
      ['dateStart=2026-11-02&dateEnd=2026-11-01', 'dateStart must not be after dateEnd'],
      ['limit=1001', 'querystring.limit must be <= 1000'],
      ['order=up', 'querystring.order must be equal to one of the allowed values'],
      ['extra=1', "querystring must not have property 'extra'"],
    ];
    for (const [query, message] of cases) {
      const answer = await get(query);
      expect([answer.status, answer.body.message]).toEqual([400, message]);
    }
    const foreign = await other.client.get('/api/v1.0/usage/api/billing?limit=10', holder.headers);
    expect(foreign.status).toBe(403);
    const resources = await holder.client.get<Array<{ resourceName: string; unitPrice: number }>>(
      '/api/v1.0/usage/api/billing/resource',
      holder.headers,
    );
    // Ten RPC networks, the eight token forwarding networks (a fee per transfer), then the eight
    // networks of address-activity webhooks (a fee per delivery).
    expect(resources.body.data).toHaveLength(26);
    expect(resources.body.data[0]).toEqual({
      resourceName: 'RPC_API_ETHEREUM_MAINNET',
      description: 'Ethereum Mainnet RPC requests',
      unitPrice: 0.00002,
    });
    expect(resources.body.data[10]).toEqual({
      resourceName: 'TOKEN_FORWARDING_ETHEREUM_SEPOLIA',
      description: 'ETHEREUM SEPOLIA token forwards',
      unitPrice: 0.05,
    });
    expect(resources.body.data[18]).toEqual({
      resourceName: 'NOTIFY_ETHEREUM_SEPOLIA',
      description: 'ETHEREUM SEPOLIA webhook deliveries',
      unitPrice: 0.0001,
    });
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('usage billing across processes on PostgreSQL', () => {
  const database = testDatabases.find((d) => d.name === 'postgres');
  const server = serverFor(database ?? testDatabases[0]!, { USAGE_FLUSH_SECONDS: '60' });

  it('charges once when two processes bill the same days at the same time', async () => {
    const holder = await accountWithKey(server().url, server().db, '10');
    for (let day = 1; day <= 5; day++) {
      const date = utcDay(new Date(Date.now() - day * 86_400_000));
      await addUsage(server().db, [
        {
          accountId: holder.accountId,
          apiKeyId: holder.keyId,
          resource: 'RPC_API_ETHEREUM_MAINNET',
          date,
          usage: 100 * day,
          computeUnits: 100 * day,
        },
      ]);
    }
    const url = (
      await server()
        .db.selectFrom('accounts')
        .select(sql<string>`current_database()`.as('name'))
        .executeTakeFirstOrThrow()
    ).name;
    const second: Db = await openDatabase({ url: process.env.TEST_DATABASE_URL!.replace(/\/[^/]*$/, `/${url}`) });
    try {
      const runs = await Promise.all([
        billUsage(server().db, { includeToday: false }),
        billUsage(second, { includeToday: false }),
        billUsage(second, { includeToday: false }),
      ]);
      expect(runs.reduce((n, r) => n + r.transactions, 0)).toBe(5);
    } finally {
      await second.destroy();
    }
    const rows = await server()
      .db.selectFrom('account_transactions')
      .select([sql<string>`count(*)`.as('n'), sql<string>`sum(amount)::text`.as('sum')])
      .where('account_id', '=', holder.accountId)
      .where('type', '=', 'WITHDRAW_RESOURCE_USAGE')
      .executeTakeFirstOrThrow();
    expect([Number(rows.n), Number(rows.sum)]).toEqual([5, -0.03]);
  });
});
