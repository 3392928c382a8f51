import type { PaymentCard } from '@ebs/contract';
import { describe, expect, it } from 'vitest';
import { brandIcon, brandName, findDefaultCard, formatExpiry, formatExpiryLong, maskedNumber } from './card-display';

const card = (id: string, defaultPaymentMethod: boolean): PaymentCard => ({
  id,
  defaultPaymentMethod,
  card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030 },
});

describe('brandIcon', () => {
  it('keeps the known brands', () => {
    for (const brand of ['amex', 'jcb', 'mastercard', 'unionpay', 'visa']) expect(brandIcon(brand)).toBe(brand);
    expect(brandIcon('MasterCard')).toBe('mastercard');
  });

  it('falls back to visa', () => {
    expect(brandIcon('discover')).toBe('visa');
    expect(brandIcon('')).toBe('visa');
    expect(brandIcon(undefined)).toBe('visa');
  });

  it('names the icon', () => {
    expect(brandName('amex')).toBe('American Express');
    expect(brandName('diners')).toBe('Visa');
  });
});

describe('card expiry', () => {
  it('shows MM/YYYY on a tile', () => {
    expect(formatExpiry(3, 2027)).toBe('03/2027');
    expect(formatExpiry(12, 2030)).toBe('12/2030');
  });

  it('shows the month name and year in the confirmation', () => {
    expect(formatExpiryLong(12, 2030)).toBe('December 2030');
    expect(formatExpiryLong(1, 2026)).toBe('January 2026');
  });

  it('falls back to MM/YYYY for a month out of range', () => {
    expect(formatExpiryLong(13, 2030)).toBe('13/2030');
  });
});

describe('card helpers', () => {
  it('masks the number', () => {
    expect(maskedNumber('4242')).toBe('•••• 4242');
  });

  it('finds the default card', () => {
    expect(findDefaultCard([card('a', false), card('b', true)])?.id).toBe('b');
    expect(findDefaultCard([card('a', false)])).toBeUndefined();
    expect(findDefaultCard([])).toBeUndefined();
  });
});
