import type { TransactionListQuery } from '@ebs/contract';
import { badRequest, TRANSACTION_TYPES } from '@ebs/contract';
import { DAY_MS, dayStart, parseNameList } from '../../http/query.ts';
import type { TransactionFilter } from './ledger.store.ts';

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
    types:
      query.typeIn === undefined
        ? undefined
        : parseNameList(query.typeIn, 'typeIn', (t) => t in TRANSACTION_TYPES, 'transaction type'),
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
