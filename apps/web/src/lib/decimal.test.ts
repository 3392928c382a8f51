import { describe, expect, it } from 'vitest';
import { decimalUnits, sumExact, sumFixed, unitsFixed } from './decimal';

describe('exact sums of USD amounts', () => {
  it('adds request prices without float artefacts', () => {
    // The float sum of three 0.00002 is 0.00006000000000000001.
    expect(0.00002 + 0.00002 + 0.00002).not.toBe(0.00006);
    expect(sumExact([0.00002, 0.00002, 0.00002])).toBe(0.00006);
    expect(String(sumExact(Array.from({ length: 7 }, () => 0.00002)))).toBe('0.00014');
    expect(sumExact(Array.from({ length: 50_000 }, () => 0.00002))).toBe(1);
  });

  it('reads amounts that print with an exponent, large amounts and signs', () => {
    expect(sumExact([1e-7, 2e-7])).toBe(3e-7);
    expect(sumExact([1e21, 1])).toBe(1e21 + 1);
    expect(sumExact([0.1, -0.3])).toBe(-0.2);
    expect(sumExact([])).toBe(0);
    expect(sumExact([Number.NaN, 0.5])).toBe(0.5);
  });

  it('rounds the exact sum half away from zero to 2 decimals', () => {
    expect(sumFixed([], 2)).toBe('0.00');
    expect(sumFixed([1, 2], 2)).toBe('3.00');
    expect(sumFixed([0.00002, 0.00002, 0.00002], 2)).toBe('0.00');
    // 250 requests at 0.00002 cost exactly half a cent.
    expect(
      sumFixed(
        Array.from({ length: 250 }, () => 0.00002),
        2,
      ),
    ).toBe('0.01');
    expect(sumFixed([0.004], 2)).toBe('0.00');
    // toFixed on the float reads 1.005 as 1.00499… and shows 1.00.
    expect((1 + 0.005).toFixed(2)).toBe('1.00');
    expect(sumFixed([1, 0.005], 2)).toBe('1.01');
    expect(sumFixed([-0.005], 2)).toBe('-0.01');
    expect(sumFixed([-0.001], 2)).toBe('0.00');
    expect(sumFixed([1234.5], 2)).toBe('1234.50');
  });

  it('reads decimal text into whole units of a scale, refusing what the scale cannot hold', () => {
    expect(decimalUnits('20', 4)).toBe(200_000n);
    expect(decimalUnits('0.35', 4)).toBe(3_500n);
    expect(decimalUnits('0.0500', 2)).toBe(5n);
    expect(decimalUnits(' 12.5 ', 10)).toBe(125_000_000_000n);
    expect(decimalUnits('0.00001', 4)).toBeUndefined();
    for (const text of ['', '-1', '1e-5', '1,000', '.5', 'abc']) expect(decimalUnits(text, 10)).toBeUndefined();
  });

  it('writes whole units of a scale as text, rounded half away from zero to fewer places', () => {
    expect(unitsFixed(100_400_000n, 10, 2)).toBe('0.01');
    expect(unitsFixed(100_400_000n, 10, 10)).toBe('0.0100400000');
    expect(unitsFixed(50_000_000n, 10, 2)).toBe('0.01');
    expect(unitsFixed(49_999_999n, 10, 2)).toBe('0.00');
    expect(unitsFixed(-50_000_000n, 10, 2)).toBe('-0.01');
    expect(unitsFixed(7n, 0, 2)).toBe('7.00');
  });
});
