import { isExpired } from '../cards/index.ts';

/** The local card processor's checks on a card as typed, with the texts a hosted provider shows. */

export type CardBrand = 'amex' | 'jcb' | 'mastercard' | 'unionpay' | 'visa';
export type CardBehaviour = 'SUCCEED' | 'DECLINE' | 'INSUFFICIENT_FUNDS' | 'CHALLENGE';

export const ProcessorMessages = {
  incorrectNumber: 'Your card number is incorrect.',
  unsupportedBrand: 'Your card brand is not supported.',
  invalidExpiry: "Your card's expiration date is invalid.",
  expired: "Your card's expiration date is in the past.",
  incompleteCvc: "Your card's security code is incomplete.",
  declined: 'Your card was declined.',
  insufficientFunds: 'Your card has insufficient funds.',
  authenticationFailed:
    'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
} as const;

/** The documented test cards (README); any other valid number succeeds. */
const TEST_CARDS: Record<string, CardBehaviour> = {
  '4000000000000002': 'DECLINE',
  '4000000000009995': 'INSUFFICIENT_FUNDS',
  '4000002760003184': 'CHALLENGE',
};

export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

export function brandOf(digits: string): CardBrand | undefined {
  if (/^3[47]\d{13}$/.test(digits)) return 'amex';
  if (/^35(2[89]|[3-8]\d)\d{12,15}$/.test(digits)) return 'jcb';
  if (/^(5[1-5]\d{14}|2(2[2-9]\d|[3-6]\d\d|7[01]\d|720)\d{12})$/.test(digits)) return 'mastercard';
  if (/^62\d{14,17}$/.test(digits)) return 'unionpay';
  if (/^4(\d{12}|\d{15}|\d{18})$/.test(digits)) return 'visa';
  return undefined;
}

export interface CardInput {
  number: string;
  exp_month: number;
  exp_year: number;
  cvc: string;
}

export interface CheckedCard {
  brand: CardBrand;
  last4: string;
  expMonth: number;
  expYear: number;
  behaviour: CardBehaviour;
}

/** Checks a card as typed; the first problem is thrown as the text to show. */
export function checkCard(input: CardInput, now = new Date()): CheckedCard {
  const digits = input.number.replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(digits) || !luhnValid(digits)) throw new CardError(ProcessorMessages.incorrectNumber);
  const brand = brandOf(digits);
  if (!brand) throw new CardError(ProcessorMessages.unsupportedBrand);
  const year = input.exp_year < 100 ? 2000 + input.exp_year : input.exp_year;
  if (!Number.isInteger(input.exp_month) || input.exp_month < 1 || input.exp_month > 12 || year > 2100) {
    throw new CardError(ProcessorMessages.invalidExpiry);
  }
  if (isExpired(input.exp_month, year, now)) throw new CardError(ProcessorMessages.expired);
  if (!new RegExp(`^\\d{${brand === 'amex' ? 4 : 3}}$`).test(input.cvc))
    throw new CardError(ProcessorMessages.incompleteCvc);
  return {
    brand,
    last4: digits.slice(-4),
    expMonth: input.exp_month,
    expYear: year,
    behaviour: TEST_CARDS[digits] ?? 'SUCCEED',
  };
}

export class CardError extends Error {}
