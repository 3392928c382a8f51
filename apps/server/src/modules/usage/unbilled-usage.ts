import { type RawBuilder, sql } from 'kysely';

/**
 * What an account's metered usage will cost once billed (usage × its unit price, decimal text), as
 * an expression for any query with an account id column (`a.id`, `accounts.id`, ...): the ledger
 * counts it as pending. Summed from the account's few open records.
 */
export const unbilledUsageOf = (accountId: string): RawBuilder<string> =>
  sql<string>`(select coalesce(sum(u.usage * u.unit_price), 0) from account_resource_usage u
    where u.account_id = ${sql.ref(accountId)} and u.status = 'PENDING')`;
