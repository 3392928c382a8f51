import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

export type CsvCell = string | number | null | undefined;

/** Text a spreadsheet would run as a formula starts with one of these: it is written as text. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One cell, RFC 4180: quoted when it holds a comma, a quote or a line break. */
export function csvCell(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  const text = FORMULA_START.test(value) && !/^-?\d+(\.\d+)?$/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A numeric column's text without its scale's trailing zeros: 12.500000 is 12.5. */
export const plainDecimal = (text: string) => (text.includes('.') ? text.replace(/\.?0+$/, '') : text);

export const csvLine = (cells: readonly CsvCell[]): string => `${cells.map(csvCell).join(',')}\r\n`;

/**
 * Answers a CSV download: the header row, then each page of rows as the database gives it, so
 * that a million rows are never held at once (and a client that stops reading stops the reads).
 */
export function sendCsv(
  reply: FastifyReply,
  fileName: string,
  header: readonly string[],
  pages: AsyncIterable<ReadonlyArray<readonly CsvCell[]>>,
): FastifyReply {
  async function* lines() {
    yield csvLine(header);
    for await (const page of pages) {
      if (page.length > 0) yield page.map(csvLine).join('');
    }
  }
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${fileName}"`)
    .header('cache-control', 'no-store')
    .send(Readable.from(lines()));
}
