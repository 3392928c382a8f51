import { METHOD_STATS_DAYS, METHOD_STATS_HOURLY_DAYS, REQUEST_LOG_DAYS } from '@ebs/contract';
import type { Db } from '../../db/database.ts';
import { DAY_MS } from '../../http/query.ts';
import { pruneMethodStats } from './method-stats.store.ts';
import { pruneRecentCalls } from './recent-calls.store.ts';
import { pruneRequests } from './request-log.store.ts';

/** The per-minute counts outlive the error-rate alert's window this long. */
const RECENT_CALLS_MS = 3_600_000;

/**
 * Keeps the gateway's insight bounded: hours older than METHOD_STATS_HOURLY_DAYS (the days hold
 * the same figures), days and weeks older than METHOD_STATS_DAYS and requests older than REQUEST_LOG_DAYS are
 * forgotten, and the per-minute counts of the error-rate alert after an hour. Safe from several processes at once.
 */
export async function keepInsight(
  db: Db,
  now = Date.now(),
): Promise<{ hours: number; days: number; weeks: number; requests: number; minutes: number }> {
  const today = now - (now % DAY_MS);
  const hours = await pruneMethodStats(db, 'hour', new Date(today - METHOD_STATS_HOURLY_DAYS * DAY_MS));
  const days = await pruneMethodStats(db, 'day', new Date(today - METHOD_STATS_DAYS * DAY_MS));
  // A week is read only whole inside a range: one that started a week before the oldest day kept is no longer.
  const weeks = await pruneMethodStats(db, 'week', new Date(today - (METHOD_STATS_DAYS + 7) * DAY_MS));
  const requests = await pruneRequests(db, new Date(now - REQUEST_LOG_DAYS * DAY_MS));
  const minutes = await pruneRecentCalls(db, new Date(now - RECENT_CALLS_MS));
  return { hours, days, weeks, requests, minutes };
}
