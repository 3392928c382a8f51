import { describe, expect, it } from 'vitest';
import { chartOption, formatValue } from './chart-option';

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
        name: 'RPC API POLYGON MAINNET',
        stack: 'total',
        areaStyle: {},
        data: [1, 0],
      }),
      expect.objectContaining({
        type: 'line',
        name: 'RPC API ETHEREUM TESTNET',
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

describe('formatValue', () => {
  it('shows requests with thousands separators and prices in USD without exponent', () => {
    expect(formatValue('usage', 1234567)).toBe('1,234,567 requests');
    expect(formatValue('price', 0.00006)).toBe('0.00006 USD');
    expect(formatValue('price', 3e-7)).toBe('0.0000003 USD');
    expect(formatValue('price', 12.5)).toBe('12.5 USD');
    expect(formatValue('usage', undefined)).toBe('-');
  });
});
