import { type RawBuilder, sql } from 'kysely';
import { usagePriceOf } from './usage-price.ts';

/**
 * What an account's metered usage will cost once billed (each record's price, decimal text), as
 * an expression for any query with an account id column (`a.id`, `accounts.id`, ...): the ledger
 * counts it as pending. Summed from the account's few open records.
 */
export const unbilledUsageOf = (accountId: string): RawBuilder<string> =>
  sql<string>`(select coalesce(sum(${usagePriceOf('u')}), 0) from account_resource_usage u
    where u.account_id = ${sql.ref(accountId)} and u.status = 'PENDING')`;
