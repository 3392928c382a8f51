import type { PaymentCard } from '@ebs/contract';

/** spec A §5, §9: the edit-card dialog offers months 01 to 12 and years 2023 to 2029. */
export const FIRST_YEAR = 2023;
export const LAST_YEAR = 2029;
export const FALLBACK_MONTH = 1;
export const FALLBACK_YEAR = 2025;

export const monthOptions = Array.from({ length: 12 }, (_, i) => ({
  value: i + 1,
  label: String(i + 1).padStart(2, '0'),
}));

export const yearOptions = Array.from({ length: LAST_YEAR - FIRST_YEAR + 1 }, (_, i) => ({
  value: FIRST_YEAR + i,
  label: String(FIRST_YEAR + i),
}));

const validMonth = (month: number | undefined) =>
  month !== undefined && Number.isInteger(month) && month >= 1 && month <= 12;
const validYear = (year: number | undefined) => year !== undefined && Number.isInteger(year) && year > 0;

/**
 * The dialog's starting values: the card's own month and year, or month 1 and year 2025 when the
 * card has none (spec A §5). A card year outside 2023-2029 is kept (the select shows it as it is),
 * so that updating only the month never moves the year.
 */
export function expiryDefaults(card: PaymentCard['card'] | undefined): { month: number; year: number } {
  return {
    month: card && validMonth(card.exp_month) ? card.exp_month : FALLBACK_MONTH,
    year: card && validYear(card.exp_year) ? card.exp_year : FALLBACK_YEAR,
  };
}
