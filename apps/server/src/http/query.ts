import { badRequest } from '@ebs/contract';

export const DAY_MS = 86_400_000;

/** A YYYY-MM-DD day as the instant it starts (UTC); a day that does not exist is refused. */
export function dayStart(value: string, name: string): Date {
  const date = new Date(`${value}T00:00:00Z`);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value) {
    throw badRequest(`${name} must be a date written YYYY-MM-DD`);
  }
  return date;
}

/** A dateStart/dateEnd pair of YYYY-MM-DD days, checked for order. */
export function dayRange(dateStart: string | undefined, dateEnd: string | undefined) {
  const from = dateStart ? dayStart(dateStart, 'dateStart') : undefined;
  const to = dateEnd ? dayStart(dateEnd, 'dateEnd') : undefined;
  if (from && to && from > to) throw badRequest('dateStart must not be after dateEnd');
  return { from, to };
}

/**
 * A list of names in a query parameter: a JSON array text (as the spec sends resourceNameIn) or
 * names separated by commas. Every name must be one of `known`.
 */
export function parseNameList(text: string, param: string, known: (name: string) => boolean, what: string): string[] {
  let names: unknown;
  try {
    names = text.trim().startsWith('[') ? JSON.parse(text) : text.split(',');
  } catch {
    throw badRequest(`${param} must be a JSON array of ${what}s`);
  }
  if (!Array.isArray(names)) throw badRequest(`${param} must be a JSON array of ${what}s`);
  const list = names.map((n) => String(n).trim()).filter(Boolean);
  const unknown = list.find((n) => !known(n));
  if (unknown !== undefined) throw badRequest(`${param} names an unknown ${what}: ${unknown}`);
  return list;
}
