import { describe, expect, it } from 'vitest';
import { expiryDefaults, monthOptions, yearOptions } from './card-expiry-options';

const card = (exp_month: number, exp_year: number) => ({ brand: 'visa', last4: '4242', exp_month, exp_year });

describe('edit-card options', () => {
  it('offers the months 01 to 12', () => {
    expect(monthOptions.map((o) => o.label)).toEqual([
      '01',
      '02',
      '03',
      '04',
      '05',
      '06',
      '07',
      '08',
      '09',
      '10',
      '11',
      '12',
    ]);
    expect(monthOptions[0]?.value).toBe(1);
    expect(monthOptions[11]?.value).toBe(12);
  });

  it('offers the years 2023 to 2029', () => {
    expect(yearOptions.map((o) => o.value)).toEqual([2023, 2024, 2025, 2026, 2027, 2028, 2029]);
    expect(yearOptions[0]?.label).toBe('2023');
  });
});

describe('expiryDefaults', () => {
  it("starts from the card's month and year", () => {
    expect(expiryDefaults(card(7, 2027))).toEqual({ month: 7, year: 2027 });
  });

  it('keeps a card year outside the offered years', () => {
    expect(expiryDefaults(card(12, 2030))).toEqual({ month: 12, year: 2030 });
  });

  it('falls back to month 1 and year 2025', () => {
    expect(expiryDefaults(undefined)).toEqual({ month: 1, year: 2025 });
    expect(expiryDefaults(card(0, 0))).toEqual({ month: 1, year: 2025 });
    expect(expiryDefaults(card(13, Number.NaN))).toEqual({ month: 1, year: 2025 });
  });
});
