import type { RpcNetworkStatus, RpcStatusHour } from '@ebs/contract';
import { StatusTexts as T } from './status-texts';

/** What a network's status says in words: shares of calls answered, its head and how old it is. */

/** How well an hour's calls were answered: at least 99.9 %, at least 99 %, less, or no call at all. */
export type HourTone = 'good' | 'fair' | 'poor' | 'none';

export function hourTone(share: number | null): HourTone {
  if (share === null) return 'none';
  if (share >= 0.999) return 'good';
  return share >= 0.99 ? 'fair' : 'poor';
}

/**
 * A share as a percent to 2 decimals, rounded down: 0.99996 reads 99.99%, never 100% while a call
 * went unanswered. (toFixed first: 0.9995 × 10 000 is not exactly 9995 in binary.)
 */
export const formatShare = (share: number) => `${Math.floor(Number((share * 10_000).toFixed(6))) / 100}%`;

/** An hour's start as its UTC clock time, 14:00. */
const utcHour = (iso: string) => new Date(iso).toISOString().slice(11, 16);

/** One hour, as its tooltip and accessible name say it: "14:00 UTC: 99.95% answered". */
export const hourText = ({ hour, answeredShare }: RpcStatusHour) =>
  answeredShare === null ? T.hourNoCalls(utcHour(hour)) : T.hourAnswered(utcHour(hour), formatShare(answeredShare));

/** The mean share of the hours that had calls, or null when none had. */
export function lastDayShare(lastDay: readonly RpcStatusHour[]): number | null {
  const shares = lastDay.flatMap((hour) => (hour.answeredShare === null ? [] : [hour.answeredShare]));
  return shares.length === 0 ? null : shares.reduce((sum, share) => sum + share, 0) / shares.length;
}

/** The 24 hours in one line: "99.9% of calls answered in the last 24 hours". */
export function lastDayText(lastDay: readonly RpcStatusHour[]): string {
  const share = lastDayShare(lastDay);
  return share === null ? T.dayNoCalls : T.dayAnswered(formatShare(share));
}

/** A head's age in the largest whole unit: 4 s, 3 min, 2 h, 5 d. */
export function formatAge(seconds: number): string {
  if (seconds < 60) return `${Math.floor(seconds)} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h`;
  return `${Math.floor(seconds / 86_400)} d`;
}

/** The network's head and when it was seen: "Block 19,000,000, 4 s ago", or "No block read yet". */
export function headText({ head, headAgeSeconds }: Pick<RpcNetworkStatus, 'head' | 'headAgeSeconds'>): string {
  if (head === null) return T.noBlock;
  return headAgeSeconds === null ? T.block(head) : `${T.block(head)}, ${T.ago(formatAge(headAgeSeconds))}`;
}
