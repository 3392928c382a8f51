import type { PaymentCard } from '@ebs/contract';

/** spec A §3: the card brands with their own icon. */
export const KNOWN_BRANDS = ['amex', 'jcb', 'mastercard', 'unionpay', 'visa'] as const;
export type KnownBrand = (typeof KNOWN_BRANDS)[number];

const BRAND_NAMES: Record<KnownBrand, string> = {
  amex: 'American Express',
  jcb: 'JCB',
  mastercard: 'Mastercard',
  unionpay: 'UnionPay',
  visa: 'Visa',
};

/** The brand whose icon a card shows: its own when known, Visa otherwise (spec A §3). */
export function brandIcon(brand: string | undefined): KnownBrand {
  const key = (brand ?? '').toLowerCase();
  return (KNOWN_BRANDS as readonly string[]).includes(key) ? (key as KnownBrand) : 'visa';
}

/** The name shown on a brand icon. */
export const brandName = (brand: string | undefined) => BRAND_NAMES[brandIcon(brand)];

/** "•••• 4242". */
export const maskedNumber = (last4: string) => `•••• ${last4}`;

const pad2 = (n: number) => String(n).padStart(2, '0');

/** A card tile's expiry, MM/YYYY. */
export const formatExpiry = (month: number, year: number) => `${pad2(month)}/${year}`;

const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** spec A §2: the confirmation shows the expiry as month name and year, e.g. "December 2030". */
export function formatExpiryLong(month: number, year: number): string {
  const name = MONTH_NAMES[month - 1];
  return name ? `${name} ${year}` : formatExpiry(month, year);
}

/** The account's default card, if one is marked so. */
export const findDefaultCard = (cards: readonly PaymentCard[]) => cards.find((card) => card.defaultPaymentMethod);
