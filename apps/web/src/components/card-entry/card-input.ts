/** What the card-entry fields hold, as typed. */
export interface CardFields {
  number: string;
  expiry: string;
  cvc: string;
}

/** The card as the processor takes it (number digits; exp_month 1-12; exp_year 4 digits). */
export interface ProcessorCard {
  number: string;
  exp_month: number;
  exp_year: number;
  cvc: string;
}

const MAX_NUMBER_DIGITS = 19;

const digits = (text: string | undefined) => (text ?? '').replace(/\D/g, '');

/** While typing: digits only, grouped by 4, at most 19 digits. */
export const groupCardNumber = (text: string | undefined) =>
  digits(text)
    .slice(0, MAX_NUMBER_DIGITS)
    .replace(/(\d{4})(?=\d)/g, '$1 ');

/** While typing: MM/YY, the slash added after the month. */
export function formatExpiryInput(text: string | undefined): string {
  const typed = digits(text).slice(0, 4);
  return typed.length > 2 ? `${typed.slice(0, 2)}/${typed.slice(2)}` : typed;
}

/** While typing: the CVC's digits, at most 4. */
export const formatCvcInput = (text: string | undefined) => digits(text).slice(0, 4);

export const isCardNumber = (text: string | undefined) => {
  const count = digits(text).length;
  return count >= 12 && count <= MAX_NUMBER_DIGITS;
};

/** "MM/YY" → month 1-12 and a 4-digit year (20YY); undefined when it is not a valid MM/YY. */
export function parseExpiry(text: string | undefined): { month: number; year: number } | undefined {
  const match = /^(\d{2})\/(\d{2})$/.exec((text ?? '').trim());
  if (!match) return undefined;
  const month = Number(match[1]);
  if (month < 1 || month > 12) return undefined;
  return { month, year: 2000 + Number(match[2]) };
}

export const isCvc = (text: string | undefined) => /^\d{3,4}$/.test(text ?? '');

/** The typed fields as the processor takes them; undefined when a field is not valid. */
export function toProcessorCard(fields: CardFields): ProcessorCard | undefined {
  const expiry = parseExpiry(fields.expiry);
  if (!expiry || !isCardNumber(fields.number) || !isCvc(fields.cvc)) return undefined;
  return { number: digits(fields.number), exp_month: expiry.month, exp_year: expiry.year, cvc: fields.cvc };
}
