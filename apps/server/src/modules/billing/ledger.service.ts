import type { TransactionListQuery } from '@ebs/contract';
import { TRANSACTION_TYPES } from '@ebs/contract';
import { badRequest } from '../../http/errors.ts';
import type { TransactionFilter } from './ledger.store.ts';

const DAY_MS = 86_400_000;

/** A YYYY-MM-DD day as the instant it starts (UTC); a day that does not exist is refused. */
function dayStart(value: string, name: string): Date {
  const date = new Date(`${value}T00:00:00Z`);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value) {
    throw badRequest(`${name} must be a date written YYYY-MM-DD`);
  }
  return date;
}

/** typeIn comes as a JSON array text (as resourceNameIn does) or as a list separated by commas. */
function parseTypes(typeIn: string): string[] {
  let types: unknown;
  try {
    types = typeIn.trim().startsWith('[') ? JSON.parse(typeIn) : typeIn.split(',');
  } catch {
    throw badRequest('typeIn must be a JSON array of transaction types');
  }
  if (!Array.isArray(types)) throw badRequest('typeIn must be a JSON array of transaction types');
  const names = types.map((t) => String(t).trim()).filter(Boolean);
  const unknown = names.find((t) => !(t in TRANSACTION_TYPES));
  if (unknown) throw badRequest(`typeIn names an unknown transaction type: ${unknown}`);
  return names;
}

/** Turns the query of GET /api/v1.0/transaction into a store filter. */
export function transactionFilter(query: TransactionListQuery): TransactionFilter {
  const from = query.dateStart ? dayStart(query.dateStart, 'dateStart') : undefined;
  const until = query.dateEnd ? new Date(dayStart(query.dateEnd, 'dateEnd').getTime() + DAY_MS) : undefined;
  if (from && until && from >= until) throw badRequest('dateStart must not be after dateEnd');
  return {
    limit: query.limit,
    offset: query.offset,
    from,
    until,
    types: query.typeIn === undefined ? undefined : parseTypes(query.typeIn),
    sortBy: query.sortBy ?? 'createdAt',
    order: query.order ?? 'desc',
  };
}

/** An amount of USD as typed by an operator: positive, at most 6 decimals. */
export function parseAmount(text: string | undefined): string {
  if (!text || !/^\d{1,12}(\.\d{1,6})?$/.test(text) || Number(text) <= 0) {
    throw new RangeError('--amount must be a positive number of USD with at most 6 decimals');
  }
  return text;
}
