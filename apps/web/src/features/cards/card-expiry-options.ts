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

const offered = (options: { value: number }[], value: number | undefined) =>
  value !== undefined && options.some((option) => option.value === value);

/**
 * The dialog's starting values: the card's own month and year when they are among the options,
 * otherwise month 1 and year 2025 (spec A §5).
 */
export function expiryDefaults(card: PaymentCard['card'] | undefined): { month: number; year: number } {
  return {
    month: offered(monthOptions, card?.exp_month) ? (card?.exp_month ?? FALLBACK_MONTH) : FALLBACK_MONTH,
    year: offered(yearOptions, card?.exp_year) ? (card?.exp_year ?? FALLBACK_YEAR) : FALLBACK_YEAR,
  };
}
