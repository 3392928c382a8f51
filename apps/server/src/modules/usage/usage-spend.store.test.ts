import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/database.ts';
import { testDatabases } from '../../testing/databases.ts';
import { insertOwnedAccount } from '../../testing/owned-account.ts';
import { addUsage } from './usage.store.ts';
import { rpcSpendOfMonth, spendOn } from './usage-spend.store.ts';

describe.each(testDatabases)('what accounts spent on $name', (database) => {
  let db: Db;
  let close: () => Promise<void>;
  let n = 0;
  beforeAll(async () => {
    ({ db, close } = await database.open());
  });
  afterAll(() => close());

  const account = () => insertOwnedAccount(db, `usage-spend-${++n}`);
  const count = (accountId: string, resource: string, date: string, usage: number, computeUnits: number | null) =>
    addUsage(db, [{ accountId, apiKeyId: null, resource, date, usage, computeUnits }]);

  it("sums a UTC month's RPC records by their compute units, billed or not, leaving out token forwards and other months", async () => {
    const [first, second, idle] = [await account(), await account(), await account()];
    await count(first, 'RPC_API_ETHEREUM_MAINNET', '2026-02-01', 10, 1_234_000);
    await db.updateTable('account_resource_usage').set({ status: 'BILLED' }).where('account_id', '=', first).execute();
    await count(first, 'RPC_API_BSC_MAINNET', '2026-02-28', 1, 567);
    await count(first, 'TOKEN_FORWARDING_ETHEREUM_SEPOLIA', '2026-02-10', 4, null);
    await count(first, 'RPC_API_ETHEREUM_MAINNET', '2026-01-31', 1, 1000);
    await count(first, 'RPC_API_ETHEREUM_MAINNET', '2026-03-01', 1, 1000);
    await count(second, 'RPC_API_POLYGON_MAINNET', '2026-02-15', 3, 3);
    const spent = await rpcSpendOfMonth(db, [first, second, idle], '2026-02');
    // 1 234 567 units at 20 USD per million; 3 units.
    expect(Number(spent.get(first))).toBe(24.69134);
    expect(spent.get(first)).toMatch(/^24\.69134(0*)$/);
    expect(Number(spent.get(second))).toBe(0.00006);
    expect(spent.get(idle) ?? '0').toBe('0');
    expect(await rpcSpendOfMonth(db, [first], '2026-12')).toEqual(new Map());
    expect(await rpcSpendOfMonth(db, [], '2026-02')).toEqual(new Map());
    await expect(rpcSpendOfMonth(db, [first], '2026-2')).rejects.toThrow('YYYY-MM');
  });

  it("prices a day's spend by compute units, token forwards by the forward", async () => {
    const accountId = await account();
    await count(accountId, 'RPC_API_ETHEREUM_MAINNET', '2026-04-02', 2, 500);
    await count(accountId, 'TOKEN_FORWARDING_ETHEREUM_SEPOLIA', '2026-04-02', 1, null);
    expect(Number((await spendOn(db, [accountId], '2026-04-02')).get(accountId))).toBe(0.06);
  });
});
