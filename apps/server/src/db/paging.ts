import { type RawBuilder, sql } from 'kysely';

/** How a page of an ordered list is read: which rows, in which direction. */
export interface PageRead {
  offset: number;
  /** 0 when the page lies past the end: nothing to read. */
  limit: number;
  order: 'asc' | 'desc';
  /** The rows come in the opposite order and are turned round before they are answered. */
  reversed: boolean;
}

/**
 * An offset page (the API's `limit`/`offset`) read from whichever end of the list is nearer. The
 * database steps over every skipped row, so the last page of a million rows, read from the start,
 * costs a million steps; read backwards from the end, it costs ten. Both directions must be one
 * exact order (a unique tie-breaker last) and `total` the count of the same rows.
 */
export function nearerEnd(total: number, offset: number, limit: number, order: 'asc' | 'desc'): PageRead {
  const size = Math.max(0, Math.min(limit, total - offset));
  if (size === 0) return { offset, limit: 0, order, reversed: false };
  if (offset * 2 + size <= total) return { offset, limit, order, reversed: false };
  return { offset: total - offset - size, limit: size, order: order === 'asc' ? 'desc' : 'asc', reversed: true };
}

/**
 * A list whose count is kept (an account's whole history) is read from the nearer end; a filtered
 * one, whose count is not known beforehand, forwards, counting its matches in the same pass.
 */
export const pageRead = (kept: number | undefined, offset: number, limit: number, order: 'asc' | 'desc'): PageRead =>
  kept === undefined ? { offset, limit, order, reversed: false } : nearerEnd(kept, offset, limit, order);

/** The `total` column of a page's rows: every match of a filtered list, counted by the page's own query. */
export const matchCount = (filtered: boolean): RawBuilder<string | null> =>
  filtered ? sql<string>`count(*) over ()` : sql<null>`null`;

/** The list's count: kept, else carried by the page's rows; past the end of a filtered list no row carries it. */
export async function totalOf(
  kept: number | undefined,
  rows: ReadonlyArray<{ total: string | null }>,
  offset: number,
  count: () => Promise<number>,
): Promise<number> {
  if (kept !== undefined) return kept;
  if (rows[0]) return Number(rows[0].total);
  return offset > 0 ? count() : 0;
}

/** The rows an ordered query gives, a page at a time, each page read after the last row of the one before. */
export async function* keysetPages<Row>(
  readPage: (after: Row | undefined) => Promise<Row[]>,
  pageSize: number,
): AsyncGenerator<Row[]> {
  let after: Row | undefined;
  for (;;) {
    const rows = await readPage(after);
    yield rows;
    if (rows.length < pageSize) return;
    after = rows[rows.length - 1];
  }
}
