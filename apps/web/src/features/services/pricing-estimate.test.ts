import type { ResourceUsageRecord, RpcPricing } from '@ebs/contract';
import { describe, expect, it } from 'vitest';
import { searchMethods } from './method-search';
import { centsText, estimateCost, exactText, lastDaysUtc } from './pricing-estimate';

const pricing = (patch: Partial<RpcPricing> = {}): RpcPricing => ({
  networks: [
    { network: 'ethereum/mainnet', resourceName: 'RPC_API_ETHEREUM_MAINNET', usdPerMillionCu: '20' },
    { network: 'polygon/mainnet', resourceName: 'RPC_API_POLYGON_MAINNET', usdPerMillionCu: '0.35' },
  ],
  methods: [],
  classes: [],
  cachedComputeUnits: null,
  forwardingFeeUsd: '0.05',
  ...patch,
});

let next = 0;
const record = (resourceName: string, usage: number, computeUnits: number | null): ResourceUsageRecord => ({
  id: `u${++next}`,
  resourceName,
  date: '2026-11-20',
  usage,
  computeUnits,
  status: 'PENDING',
  price: 0,
  unitPrice: 0,
  apiKeyId: null,
});

describe('the estimate of what usage costs at today’s prices', () => {
  it('sums compute units × USD per million CU and forwards × the fee exactly, in 10^-10 USD', () => {
    const records = [
      record('RPC_API_ETHEREUM_MAINNET', 1_000_000, 1_234_567),
      record('RPC_API_POLYGON_MAINNET', 10, 10),
      record('RPC_API_POLYGON_MAINNET', 3, 3),
      record('TOKEN_FORWARDING_ETHEREUM_MAINNET', 2, null),
    ];
    // 24.69134 + 0.0000035 + 0.00000105 + 0.10, to the last digit.
    const estimate = estimateCost(records, pricing());
    expect(estimate).toEqual({
      calls: 1_000_013,
      computeUnits: 1_234_580,
      forwards: 2,
      total: 247_913_445_500n,
      unpriced: 0,
    });
    expect(centsText(estimate.total)).toBe('$24.79');
    expect(exactText(estimate.total)).toBe('24.79134455');
  });

  it('shows the cents rounded half up and at least six decimals of the exact figure', () => {
    const at = (computeUnits: number) =>
      estimateCost([record('RPC_API_ETHEREUM_MAINNET', computeUnits, computeUnits)], pricing()).total;
    // 502 CU at $20 per million: 0.01004 USD.
    expect([centsText(at(502)), exactText(at(502))]).toEqual(['$0.01', '0.010040']);
    // 250 CU: exactly half a cent, rounded up.
    expect([centsText(at(250)), exactText(at(250))]).toEqual(['$0.01', '0.005000']);
    expect([centsText(at(0)), exactText(at(0))]).toEqual(['$0.00', '0.000000']);
    expect(centsText(at(61_728_395_000))).toBe('$1,234,567.90');
  });

  it('leaves out, and counts, records of a resource without a price or RPC usage without its units', () => {
    const estimate = estimateCost(
      [
        record('RPC_API_AURORA_TESTNET', 4, 4),
        record('RPC_API_ETHEREUM_MAINNET', 7, null),
        record('RPC_API_ETHEREUM_MAINNET', 1, 50_000),
        record('TOKEN_FORWARDING_POLYGON_MAINNET', 1, null),
      ],
      pricing({ forwardingFeeUsd: 'n/a' }),
    );
    expect(estimate).toMatchObject({ calls: 12, computeUnits: 50_004, forwards: 1, unpriced: 3 });
    expect(exactText(estimate.total)).toBe('1.000000');
  });

  it('covers the last 30 days up to today, as the usage list dates records (UTC)', () => {
    expect(lastDaysUtc(30, new Date('2026-11-28T23:30:00Z'))).toEqual({
      dateStart: '2026-10-30',
      dateEnd: '2026-11-28',
    });
    expect(lastDaysUtc(30, new Date('2026-03-01T00:10:00Z'))).toEqual({
      dateStart: '2026-01-31',
      dateEnd: '2026-03-01',
    });
  });
});

describe('the method search', () => {
  const rows = ['eth_call', 'eth_getLogs', 'debug_trace*', 'debug_*', 'trace_*'].map((method) => ({ method }));
  const names = (typed: string) => searchMethods(rows, typed).rows.map((row) => row.method);

  it('keeps the rows whose name holds the text, in any case', () => {
    expect(names('')).toHaveLength(5);
    expect(names('ETH_')).toEqual(['eth_call', 'eth_getLogs']);
    expect(names('eth_call')).toEqual(['eth_call']);
    expect(searchMethods(rows, 'eth_call').pricedBy).toBeUndefined();
  });

  it('finds the namespace that prices a method the table does not name: the longest, first', () => {
    expect(searchMethods(rows, ' debug_traceTransaction ')).toEqual({
      rows: [{ method: 'debug_trace*' }],
      pricedBy: { method: 'debug_trace*' },
    });
    expect(names('debug_trace')).toEqual(['debug_trace*']);
    expect(names('debug_')).toEqual(['debug_*', 'debug_trace*']);
    expect(names('debug_getRawBlock')).toEqual(['debug_*']);
    expect(names('eth_unknownMethod')).toEqual([]);
  });
});
