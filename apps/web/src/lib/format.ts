import { findRpcNetwork } from '@ebs/contract';
import { sumFixed } from './decimal';

/** spec A §9: available credit is the balance minus amountPending, 2 decimals. */
export const availableCredits = (balance: number, amountPending: number) => sumFixed([balance, -amountPending], 2);

/** spec A §9: amounts in the history tables have 5 decimals, so a price of one request (0.00002) shows. */
export const formatTableAmount = (amount: number) => amount.toFixed(5);

/**
 * A sum of USD prices exactly, to 5 decimals like the tables but without their trailing zeros past
 * the cents: 0.05, 0.00012, 3.10, never 0.00 for usage that did cost something.
 */
export const formatUsdSum = (values: readonly number[]) => sumFixed(values, 5).replace(/(\.\d\d\d*?)0+$/, '$1');

/** spec A §2: table amounts have 5 decimals and a plus sign when positive. */
export const formatSignedAmount = (amount: number) => `${amount > 0 ? '+' : ''}${formatTableAmount(amount)}`;

// Dates are formatted by hand rather than with dayjs: the table pages then do not load it (3 kB gzip),
// only the overview's date picker and chart do.
const two = (n: number) => String(n).padStart(2, '0');
const ymd = (d: Date) => `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`;

/** spec A §9: table dates are YYYY-MM-DD HH:mm:ss, in the viewer's time zone. */
export const formatDateTime = (iso: string) => {
  const d = new Date(iso);
  return `${ymd(d)} ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
};

/** spec B §2, spec A §9: an account's creation date is YYYY-MM-DD, in the viewer's time zone. */
export const formatDate = (iso: string) => ymd(new Date(iso));

/** spec B §2, §9: a long address, id or hash shows its first 4 and last 4 characters joined by three dots. */
export const abbreviate = (value: string) => (value.length > 11 ? `${value.slice(0, 4)}...${value.slice(-4)}` : value);

/** A fraction as a percent (spec B §9: rate × 100), without binary noise: 0.0725 → "7.25%". */
export const formatPercent = (rate: number) => `${Number((rate * 100).toFixed(4))}%`;

/** A network's name as the RPC page shows it, from its path (ethereum/sepolia → Ethereum Sepolia). */
export const networkName = (path: string) => findRpcNetwork(path)?.name ?? path;
