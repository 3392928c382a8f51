import type { ResourceUsageRecord, Transaction } from '@ebs/contract';
import { describe, expect, it, vi } from 'vitest';
import { fetchAllPages } from '../../lib/all-pages';
import { monthlyUsage } from '../../lib/usage-month';
import { dailySeries, monthlyBill } from './usage-sums';

let next = 0;
const record = (resourceName: string, date: string, usage: number, price = usage * 0.00002): ResourceUsageRecord => ({
  id: `u${++next}`,
  resourceName,
  date,
  usage,
  status: 'PENDING',
  price,
  unitPrice: 0.00002,
  computeUnits: usage,
  apiKeyId: `k${next}`,
});

const transaction = (type: string, amount: number): Transaction => ({
  id: `t${++next}`,
  type,
  amount,
  status: 'COMPLETED',
  createdAt: '2026-11-02T10:00:00.000Z',
  updatedAt: '2026-11-02T10:00:00.000Z',
  metadata: {},
});

const POLYGON = 'RPC_API_POLYGON_MAINNET';
const ETHEREUM = 'RPC_API_ETHEREUM_MAINNET';
const DAYS = ['2026-11-19', '2026-11-20', '2026-11-21'];

describe('dailySeries', () => {
  it('adds up the records of a day and resource (one per key) and shows 0 on days without usage', () => {
    const records = [
      record(POLYGON, '2026-11-19', 3),
      record(POLYGON, '2026-11-19', 4),
      record(ETHEREUM, '2026-11-21', 9),
    ];
    expect(dailySeries(records, [POLYGON, ETHEREUM], DAYS, 'usage')).toEqual([
      { resourceName: POLYGON, values: [7, 0, 0] },
      { resourceName: ETHEREUM, values: [0, 0, 9] },
    ]);
  });

  it('sums prices exactly', () => {
    const records = [1, 1, 1].map(() => record(POLYGON, '2026-11-20', 1, 0.00002));
    const [polygon] = dailySeries(records, [POLYGON], DAYS, 'price');
    expect(polygon?.values).toEqual([0, 0.00006, 0]);
  });

  it('keeps the order of the resource list, even for resources without records', () => {
    const series = dailySeries(
      [record(ETHEREUM, '2026-11-20', 1)],
      [ETHEREUM, 'RPC_API_BASE_MAINNET', POLYGON],
      DAYS,
      'usage',
    );
    expect(series.map((s) => s.resourceName)).toEqual([ETHEREUM, 'RPC_API_BASE_MAINNET', POLYGON]);
    expect(series[1]?.values).toEqual([0, 0, 0]);
  });

  it('leaves out records of other resources and of days outside the range', () => {
    const records = [record('TOKEN_FORWARDING_POLYGON', '2026-11-20', 5), record(POLYGON, '2026-11-18', 5)];
    expect(dailySeries(records, [POLYGON], DAYS, 'usage')).toEqual([{ resourceName: POLYGON, values: [0, 0, 0] }]);
  });
});

describe('monthly summary', () => {
  it('bills the absolute amounts of usage withdrawals only, exactly, to 2 decimals', () => {
    const transactions = [
      transaction('WITHDRAW_RESOURCE_USAGE', -1.1),
      transaction('WITHDRAW_RESOURCE_USAGE', -2.2),
      transaction('ADMIN_MANUAL_DEPOSIT', 25),
      ...Array.from({ length: 250 }, () => transaction('WITHDRAW_RESOURCE_USAGE', -0.00002)),
    ];
    // 1.1 + 2.2 + 0.005 = 3.305, which rounds up.
    expect(monthlyBill(transactions)).toBe('3.31');
    expect(monthlyBill([])).toBe('0.00');
  });

  it('counts the API calls and the token forwards of the month apart, per resource, and what is not posted yet', () => {
    const month = monthlyUsage([
      { ...record(POLYGON, '2026-11-01', 1200), status: 'BILLED' },
      record(ETHEREUM, '2026-11-02', 34),
      record(ETHEREUM, '2026-11-02', 1),
      record('TOKEN_FORWARDING_ETHEREUM_MAINNET', '2026-11-02', 2, 0.1),
    ]);
    expect(month.apiCalls).toBe(1235);
    expect(month.forwards).toBe(2);
    // 35 × 0.00002 + 0.1 = 0.1007 not yet posted; the BILLED record is in the ledger already.
    expect(month.unposted).toBe('0.1007');
    expect(month.total).toBe('0.1247');
    expect(month.byResource.get(ETHEREUM)).toEqual({ usage: 35, price: 0.0007 });
    expect(month.byResource.get(POLYGON)).toEqual({ usage: 1200, price: 0.024 });
    expect(monthlyUsage([])).toEqual({
      apiCalls: 0,
      forwards: 0,
      total: '0.00',
      unposted: '0.00',
      byResource: new Map(),
    });
  });
});

describe('fetchAllPages', () => {
  const pages = (totalCount: number) =>
    vi.fn(async (offset: number) => ({
      items: Array.from({ length: Math.max(0, Math.min(100, totalCount - offset)) }, (_, i) => offset + i),
      totalCount,
    }));

  it('asks for blocks of 100 until totalCount is reached', async () => {
    const fetchPage = pages(250);
    const items = await fetchAllPages(100, fetchPage);
    expect(fetchPage.mock.calls.map(([offset]) => offset)).toEqual([0, 100, 200]);
    expect(items).toEqual(Array.from({ length: 250 }, (_, i) => i));
  });

  it('stops after the first page when it holds everything', async () => {
    for (const total of [0, 37, 100]) {
      const fetchPage = pages(total);
      expect(await fetchAllPages(100, fetchPage)).toHaveLength(total);
      expect(fetchPage).toHaveBeenCalledTimes(1);
    }
  });
});
