import { Messages } from '@ebs/contract';

/** spec A §5: the deposit minimum when the DEPOSIT setting gives none. */
export const DEFAULT_MIN_AMOUNT = 1;

const groupThousands = (digits: string) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

const digitsOf = (value: string | number | null | undefined): string => {
  if (typeof value === 'number') return Number.isFinite(value) ? String(Math.trunc(Math.abs(value))) : '';
  return (value ?? '').replace(/\D/g, '');
};

/** spec A §5: an amount shows with a dollar sign and thousands separators, e.g. "$ 1,000"; empty stays empty. */
export const formatAmountInput = (value: string | number | null | undefined): string => {
  const digits = digitsOf(value).replace(/^0+(?=\d)/, '');
  return digits ? `$ ${groupThousands(digits)}` : '';
};

/**
 * spec A §5: only digits can be typed; everything else (the dollar sign, the thousands' commas,
 * letters) is dropped. Cents never become dollars: text from a dot on is not read ("12.50" reads 12,
 * not 1250). A comma is only ever a thousands' separator here: the field's own text has them while
 * it is edited ("$ 1,00" on the way from 1,000 to 100).
 */
export const parseAmountInput = (text: string | undefined): string => digitsOf((text ?? '').split('.')[0]);

/**
 * A typed key or pasted text that would write cents (a dot, or a comma before one or two last
 * digits: "12,50"): amounts are whole US dollars, so it is refused and the user told so.
 */
export const writesCents = (text: string) => /\.|,\d{0,2}$/.test(text.trim());

/** spec A §5: a key that types something other than a digit is refused; shortcuts and editing keys pass. */
export const isBlockedAmountKey = (key: string, withModifier: boolean) =>
  !withModifier && key.length === 1 && !/\d/.test(key);

/** A form value as a number of USD, or undefined when there is none. */
export const toAmount = (value: unknown): number | undefined => {
  if (value === null || value === undefined || value === '') return undefined;
  const amount = Number(value);
  return Number.isFinite(amount) ? amount : undefined;
};

/**
 * spec A §5: an amount must be nonzero ("Deposit amount is required.") and within min..max.
 * Answers the message to show, or undefined when the amount is fine.
 */
export function amountError(value: unknown, min: number, max: number): string | undefined {
  const amount = toAmount(value);
  if (!amount) return Messages.depositAmountRequired;
  if (amount < min) return Messages.depositMin(min);
  if (amount > max) return Messages.depositMax;
  return undefined;
}

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

const wholeUsd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });

/** A whole-dollar amount in a sentence, e.g. "$1,000". */
export const formatWholeUsd = (amount: number) => wholeUsd.format(amount);

/** An amount in USD to the cent, e.g. "$1,000.00". */
export const formatUsd = (amount: number) => usd.format(amount);

/** spec A §2: the deposit confirmation is titled with the amount in USD, e.g. "$25.00 USD". */
export const formatUsdTitle = (amount: number) => `${usd.format(amount)} USD`;

/** The DEPOSIT setting's minAmount, or 1 when the setting or its minAmount is missing (spec A §5). */
export function depositMinimum(settings: object | undefined): number {
  const minAmount = settings && 'minAmount' in settings ? (settings as { minAmount: unknown }).minAmount : undefined;
  return typeof minAmount === 'number' && Number.isFinite(minAmount) ? minAmount : DEFAULT_MIN_AMOUNT;
}
