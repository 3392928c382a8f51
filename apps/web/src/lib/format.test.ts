import { describeTransactionType } from '@ebs/contract';
import { describe, expect, it } from 'vitest';
import { abbreviate, availableCredits, formatDateTime, formatSignedAmount } from './format';

describe('amounts and dates in tables', () => {
  it.each([
    [100, '+100.00000'],
    [0.123456, '+0.12346'],
    [-0.1, '-0.10000'],
    [0, '0.00000'],
  ])('shows %d as %s', (amount, text) => {
    expect(formatSignedAmount(amount)).toBe(text);
  });

  it('shows available credit as balance minus pending, 2 decimals', () => {
    expect(availableCredits(10.3, 0.1)).toBe('10.20');
    expect(availableCredits(0, 5)).toBe('-5.00');
    // Decimal, not float: 25 − 0.005 is 24.995 exactly, which rounds half up (float toFixed gives 24.99).
    expect(availableCredits(25, 0.005)).toBe('25.00');
    expect(availableCredits(9.965, 0.00002)).toBe('9.96');
  });

  it('formats dates as YYYY-MM-DD HH:mm:ss', () => {
    expect(formatDateTime('2026-01-02T03:04:05Z')).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it('describes transaction types, an unknown one by its raw value', () => {
    expect(describeTransactionType('ADMIN_MANUAL_DEPOSIT')).toBe('Manual deposit');
    expect(describeTransactionType('REFUND_PARTIAL')).toBe('REFUND_PARTIAL');
  });
});

describe('abbreviated addresses, ids and hashes', () => {
  it.each([
    ['0x52908400098527886E0F7030069857D2E4169EE7', '0x52...9EE7'],
    ['aaaaaaaa-aaaa-4aaa-8aaa-bbbbbbbbcccc', 'aaaa...cccc'],
  ])('shows %s as %s', (value, text) => {
    expect(abbreviate(value)).toBe(text);
  });

  it('leaves a value that three dots would not shorten as it is', () => {
    expect(abbreviate('0x1234abcde')).toBe('0x1234abcde');
    expect(abbreviate('')).toBe('');
  });
});
