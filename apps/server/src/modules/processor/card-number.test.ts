import { describe, expect, it } from 'vitest';
import { isExpired } from '../cards/card-expiry.ts';
import { brandOf, checkCard, luhnValid, ProcessorMessages } from './card-number.ts';

const now = new Date('2026-11-21T12:00:00Z');
const card = (number: string, extra: Partial<{ exp_month: number; exp_year: number; cvc: string }> = {}) =>
  checkCard({ number, exp_month: 12, exp_year: 2030, cvc: '123', ...extra }, now);

describe('the local card processor’s card checks', () => {
  it('checks the Luhn digit', () => {
    expect(luhnValid('4242424242424242')).toBe(true);
    expect(luhnValid('4242424242424241')).toBe(false);
  });

  it.each([
    ['4242424242424242', 'visa'],
    ['5555555555554444', 'mastercard'],
    ['2223003122003222', 'mastercard'],
    ['378282246310005', 'amex'],
    ['3566002020360505', 'jcb'],
    ['6200000000000005', 'unionpay'],
  ])('knows %s as %s', (number, brand) => {
    expect(brandOf(number)).toBe(brand);
  });

  it('keeps only brand, last four, expiry and the test behaviour', () => {
    expect(card('4242 4242 4242 4242')).toEqual({
      brand: 'visa',
      last4: '4242',
      expMonth: 12,
      expYear: 2030,
      behaviour: 'SUCCEED',
    });
  });

  it.each([
    ['4000000000000002', 'DECLINE'],
    ['4000000000009995', 'INSUFFICIENT_FUNDS'],
    ['4000002760003184', 'CHALLENGE'],
  ])('gives the documented test card %s the behaviour %s', (number, behaviour) => {
    expect(card(number).behaviour).toBe(behaviour);
  });

  it.each([
    ['4242424242424241', {}, ProcessorMessages.incorrectNumber],
    ['12345', {}, ProcessorMessages.incorrectNumber],
    ['9999999999999995', {}, ProcessorMessages.unsupportedBrand],
    ['4242424242424242', { exp_month: 13 }, ProcessorMessages.invalidExpiry],
    ['4242424242424242', { exp_month: 10, exp_year: 2026 }, ProcessorMessages.expired],
    ['4242424242424242', { cvc: '12' }, ProcessorMessages.incompleteCvc],
    ['378282246310005', { cvc: '123' }, ProcessorMessages.incompleteCvc],
  ])('refuses %s %j: %s', (number, extra, message) => {
    expect(() => card(number, extra)).toThrow(message);
  });

  it('counts a card as valid through the end of its month', () => {
    expect(isExpired(11, 2026, now)).toBe(false);
    expect(isExpired(10, 2026, now)).toBe(true);
  });
});
