import { ANALYTICS_RANGES, type MethodSeries } from '@ebs/contract';
import { describe, expect, it } from 'vitest';
import { analyticsCharts, CHARTED_METHODS } from './analytics-charts';

const NOW = Date.parse('2026-11-26T15:40:00Z');
const [lastDay, lastWeek] = ANALYTICS_RANGES;

describe('the Analytics charts’ data', () => {
  it('puts every hour of the last 24 on the axis, at 0 when nothing was called', () => {
    const series: MethodSeries = {
      interval: 'hour',
      points: [
        { time: '2026-11-26T15:00:00.000Z', method: 'eth_call', calls: 4, errors: 1, refused: 2, computeUnits: 20 },
        { time: '2026-11-26T13:00:00.000Z', method: 'eth_call', calls: 6, errors: 0, refused: 0, computeUnits: 30 },
        { time: '2026-11-26T13:00:00.000Z', method: 'eth_chainId', calls: 12, errors: 0, refused: 0, computeUnits: 0 },
      ],
      latency: [{ time: '2026-11-26T13:00:00.000Z', p50Ms: 1.2, p95Ms: 8 }],
    };
    const charts = analyticsCharts(series, lastDay, NOW);
    expect(charts.labels).toHaveLength(24);
    expect(charts.labels.slice(-3)).toEqual(['13:00', '14:00', '15:00']);
    expect(charts.methods.map((m) => [m.name, m.values.slice(-3)])).toEqual([
      ['eth_chainId', [12, 0, 0]],
      ['eth_call', [6, 0, 4]],
    ]);
    // A point every hour: 0 where nothing was called; the refused calls are not errors.
    expect(charts.errorRate.slice(-3)).toEqual([0, 0, 0.25]);
    expect(charts.errorRate).toHaveLength(24);
    expect(charts.errorRate[0]).toBe(0);
    expect(charts.p95.slice(-3)).toEqual([8, null, null]);
  });

  it('charts the most called methods on their own and sums the rest as Other, by day', () => {
    const points = Array.from({ length: 10 }, (_, i) => ({
      time: '2026-11-25T00:00:00.000Z',
      method: `m${i}`,
      calls: 100 - i,
      errors: 0,
      refused: 0,
      computeUnits: 100 - i,
    }));
    const charts = analyticsCharts({ interval: 'day', points, latency: [] }, lastWeek, NOW);
    expect(charts.labels).toEqual(['11-20', '11-21', '11-22', '11-23', '11-24', '11-25', '11-26']);
    expect(charts.methods).toHaveLength(CHARTED_METHODS);
    expect(charts.methods.at(-1)).toEqual({ name: 'Other', values: [0, 0, 0, 0, 0, 94 + 93 + 92 + 91, 0] });
    expect(charts.methods[0]).toEqual({ name: 'm0', values: [0, 0, 0, 0, 0, 100, 0] });
  });
});
