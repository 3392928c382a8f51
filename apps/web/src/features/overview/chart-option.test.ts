import { describe, expect, it } from 'vitest';
import { chartOption, formatValue, legendEntries } from './chart-option';

const series = [
  { resourceName: 'RPC_API_POLYGON_MAINNET', values: [1, 0] },
  { resourceName: 'RPC_API_ETHEREUM_TESTNET', values: [0, 2] },
];

describe('chartOption', () => {
  it('draws one stacked area per resource, named with spaces, with zoom, tooltip and legend', () => {
    const option = chartOption(['Nov. 20', 'Nov. 21'], series, 'usage');
    expect(option.xAxis).toMatchObject({ type: 'category', data: ['Nov. 20', 'Nov. 21'] });
    expect(option.series).toEqual([
      expect.objectContaining({
        type: 'line',
        name: 'Polygon Mainnet requests',
        stack: 'total',
        areaStyle: {},
        data: [1, 0],
      }),
      expect.objectContaining({
        type: 'line',
        name: 'Ethereum Sepolia requests',
        stack: 'total',
        areaStyle: {},
        data: [0, 2],
      }),
    ]);
    expect(option.dataZoom).toEqual([
      expect.objectContaining({ type: 'inside' }),
      expect.objectContaining({ type: 'slider' }),
    ]);
    expect(option.tooltip).toMatchObject({ trigger: 'axis' });
    expect(option.legend).toBeTruthy();
  });
});

describe('the legend', () => {
  it('names every series in its own colour, for the legend drawn beside the canvas', () => {
    const entries = legendEntries(series);
    expect(entries.map((e) => e.name)).toEqual(['Polygon Mainnet requests', 'Ethereum Sepolia requests']);
    const option = chartOption(['Nov. 20', 'Nov. 21'], series, 'usage');
    expect((option.color as string[]).slice(0, 2)).toEqual(entries.map((e) => e.color));
    expect(new Set(entries.map((e) => e.color)).size).toBe(2);
  });

  it('gives each of the 18 resources of the billing chart a colour of its own', () => {
    const many = Array.from({ length: 18 }, (_, i) => ({ resourceName: `RPC_API_NET_${i}`, values: [1] }));
    expect(new Set(legendEntries(many).map((e) => e.color)).size).toBe(18);
  });

  it('leaves out the resources without usage in the range, each keeping its series colour', () => {
    const mixed = [
      { resourceName: 'RPC_API_POLYGON_MAINNET', values: [0, 0] },
      { resourceName: 'RPC_API_ETHEREUM_TESTNET', values: [0, 3] },
    ];
    const colours = chartOption(['Nov. 20', 'Nov. 21'], mixed, 'usage').color as string[];
    expect(legendEntries(mixed)).toEqual([{ name: 'Ethereum Sepolia requests', color: colours[1] }]);
    // The one series shown takes the palette's first colour; the unused one another.
    expect(colours[1]).toBe('#4e79a7');
    expect(colours[0]).not.toBe(colours[1]);
    expect(legendEntries([{ resourceName: 'RPC_API_POLYGON_MAINNET', values: [0, 0] }])).toEqual([]);
    const [unused, used] = chartOption(['Nov. 20', 'Nov. 21'], mixed, 'usage').series as Array<{ lineStyle?: object }>;
    expect(unused?.lineStyle).toEqual({ width: 0 });
    expect(used?.lineStyle).toBeUndefined();
  });

  it('draws no legend on the canvas and hides the series turned off in the page legend', () => {
    const option = chartOption(['Nov. 20', 'Nov. 21'], series, 'usage', new Set(['Ethereum Sepolia requests']));
    expect(option.legend).toMatchObject({
      show: false,
      selected: { 'Polygon Mainnet requests': true, 'Ethereum Sepolia requests': false },
    });
  });
});

describe('formatValue', () => {
  it('shows requests with thousands separators and prices in USD without exponent', () => {
    expect(formatValue('usage', 1234567)).toBe('1,234,567 requests');
    expect(formatValue('price', 0.00006)).toBe('0.00006 USD');
    expect(formatValue('price', 3e-7)).toBe('0.0000003 USD');
    expect(formatValue('price', 12.5)).toBe('12.5 USD');
    expect(formatValue('usage', undefined)).toBe('-');
  });
});
