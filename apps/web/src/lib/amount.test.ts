import { Messages } from '@ebs/contract';
import { describe, expect, it } from 'vitest';
import {
  amountError,
  depositMinimum,
  formatAmountInput,
  formatUsdTitle,
  isBlockedAmountKey,
  parseAmountInput,
  toAmount,
  writesCents,
} from './amount';

describe('formatAmountInput', () => {
  it('shows a dollar sign and thousands separators', () => {
    expect(formatAmountInput(1000)).toBe('$ 1,000');
    expect(formatAmountInput('99999')).toBe('$ 99,999');
    expect(formatAmountInput(25)).toBe('$ 25');
    expect(formatAmountInput('1234567')).toBe('$ 1,234,567');
  });

  it('leaves an empty value empty and drops leading zeros', () => {
    expect(formatAmountInput(undefined)).toBe('');
    expect(formatAmountInput(null)).toBe('');
    expect(formatAmountInput('')).toBe('');
    expect(formatAmountInput('007')).toBe('$ 7');
    expect(formatAmountInput(0)).toBe('$ 0');
  });
});

describe('parseAmountInput', () => {
  it('keeps digits only', () => {
    expect(parseAmountInput('$ 1,000')).toBe('1000');
    expect(parseAmountInput('$ 12a5')).toBe('125');
    expect(parseAmountInput('-3')).toBe('3');
    expect(parseAmountInput(undefined)).toBe('');
  });

  it('never turns cents into dollars: nothing from a dot on is read', () => {
    expect(parseAmountInput('12.50')).toBe('12');
    expect(parseAmountInput('$ 0.5')).toBe('0');
    expect(parseAmountInput('$ 1,000.99')).toBe('1000');
  });

  it('reads commas as the thousands separators the field writes, also while it is edited', () => {
    expect(parseAmountInput('$ 1,00')).toBe('100');
    expect(parseAmountInput('$ 1,0005')).toBe('10005');
  });

  it('round-trips with the formatter', () => {
    expect(parseAmountInput(formatAmountInput('54321'))).toBe('54321');
  });
});

describe('isBlockedAmountKey', () => {
  it('refuses typed characters other than digits', () => {
    for (const key of ['a', '.', ',', '-', '+', 'e', ' ', '$']) expect(isBlockedAmountKey(key, false)).toBe(true);
  });

  it('lets digits, editing keys and shortcuts through', () => {
    for (const key of ['0', '7', 'Backspace', 'Delete', 'ArrowLeft', 'Tab', 'Enter']) {
      expect(isBlockedAmountKey(key, false)).toBe(false);
    }
    expect(isBlockedAmountKey('v', true)).toBe(false);
  });
});

describe('toAmount', () => {
  it('reads numbers and digit strings, and nothing from empty values', () => {
    expect(toAmount(5)).toBe(5);
    expect(toAmount('12')).toBe(12);
    expect(toAmount('')).toBeUndefined();
    expect(toAmount(null)).toBeUndefined();
    expect(toAmount('x')).toBeUndefined();
  });
});

describe('amountError', () => {
  it('asks for a nonzero amount', () => {
    expect(amountError(undefined, 1, 99999)).toBe(Messages.depositAmountRequired);
    expect(amountError('', 1, 99999)).toBe(Messages.depositAmountRequired);
    expect(amountError(0, 1, 99999)).toBe(Messages.depositAmountRequired);
  });

  it('keeps the amount within min and max', () => {
    expect(amountError(4, 5, 99999)).toBe(Messages.depositMin(5));
    expect(amountError(100000, 1, 99999)).toBe(Messages.depositMax);
    expect(amountError(5, 5, 99999)).toBeUndefined();
    expect(amountError('99999', 1, 99999)).toBeUndefined();
  });
});

describe('formatUsdTitle', () => {
  it('formats the amount as en-US currency followed by USD', () => {
    expect(formatUsdTitle(25)).toBe('$25.00 USD');
    expect(formatUsdTitle(12345)).toBe('$12,345.00 USD');
  });
});

describe('depositMinimum', () => {
  it('reads minAmount from the DEPOSIT setting', () => {
    expect(depositMinimum({ minAmount: 5 })).toBe(5);
  });

  it('falls back to 1 without a setting or a minAmount', () => {
    expect(depositMinimum(undefined)).toBe(1);
    expect(depositMinimum({ mandatory: true })).toBe(1);
  });
});

describe('writesCents', () => {
  it('finds a typed or pasted decimal separator', () => {
    for (const text of ['.', ',', '12.50', '12,50', '0.5', '$ 1,000.00', '7,5']) expect(writesCents(text)).toBe(true);
  });

  it('lets whole dollars through, grouped or not', () => {
    for (const text of ['7', '1000', '1,000', '$ 12,345', '']) expect(writesCents(text)).toBe(false);
  });
});
