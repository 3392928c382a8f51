import { describe, expect, it } from 'vitest';
import {
  formatCvcInput,
  formatExpiryInput,
  groupCardNumber,
  isCardNumber,
  isCvc,
  parseExpiry,
  toProcessorCard,
} from './card-input';

describe('card number', () => {
  it('keeps digits, grouped by 4, at most 19', () => {
    expect(groupCardNumber('4242424242424242')).toBe('4242 4242 4242 4242');
    expect(groupCardNumber('4242-42a42')).toBe('4242 4242');
    expect(groupCardNumber('42424')).toBe('4242 4');
    expect(groupCardNumber('4242')).toBe('4242');
    expect(groupCardNumber('12345678901234567890123')).toBe('1234 5678 9012 3456 789');
    expect(groupCardNumber(undefined)).toBe('');
  });

  it('accepts 12 to 19 digits', () => {
    expect(isCardNumber('4242 4242 4242 4242')).toBe(true);
    expect(isCardNumber('4242 4242 424')).toBe(false);
    expect(isCardNumber('')).toBe(false);
  });
});

describe('expiry', () => {
  it('adds the slash after the month while typing', () => {
    expect(formatExpiryInput('1')).toBe('1');
    expect(formatExpiryInput('12')).toBe('12');
    expect(formatExpiryInput('123')).toBe('12/3');
    expect(formatExpiryInput('12/30')).toBe('12/30');
    expect(formatExpiryInput('12/3099')).toBe('12/30');
  });

  it('reads MM/YY as month and 4-digit year', () => {
    expect(parseExpiry('12/30')).toEqual({ month: 12, year: 2030 });
    expect(parseExpiry('01/27')).toEqual({ month: 1, year: 2027 });
  });

  it('refuses a month out of range or another shape', () => {
    expect(parseExpiry('13/30')).toBeUndefined();
    expect(parseExpiry('00/30')).toBeUndefined();
    expect(parseExpiry('1/30')).toBeUndefined();
    expect(parseExpiry('12/2030')).toBeUndefined();
    expect(parseExpiry(undefined)).toBeUndefined();
  });
});

describe('cvc', () => {
  it('keeps 3 or 4 digits', () => {
    expect(formatCvcInput('12a345')).toBe('1234');
    expect(isCvc('123')).toBe(true);
    expect(isCvc('1234')).toBe(true);
    expect(isCvc('12')).toBe(false);
  });
});

describe('toProcessorCard', () => {
  it('builds the processor card from the typed fields', () => {
    expect(toProcessorCard({ number: '4242 4242 4242 4242', expiry: '12/30', cvc: '123' })).toEqual({
      number: '4242424242424242',
      exp_month: 12,
      exp_year: 2030,
      cvc: '123',
    });
  });

  it('answers undefined when a field is not valid', () => {
    expect(toProcessorCard({ number: '4242', expiry: '12/30', cvc: '123' })).toBeUndefined();
    expect(toProcessorCard({ number: '4242 4242 4242 4242', expiry: '13/30', cvc: '123' })).toBeUndefined();
    expect(toProcessorCard({ number: '4242 4242 4242 4242', expiry: '12/30', cvc: '1' })).toBeUndefined();
  });
});
