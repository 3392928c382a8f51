import { type RawBuilder, sql } from 'kysely';

/**
 * What a usage record costs (USD, numeric), for a query that reads account_resource_usage as
 * `alias`: its compute units × its unit price, or its calls × its unit price for a record that
 * keeps no units (token forwards, priced per forward; RPC records written before compute units,
 * one unit a call). Every sum of usage in money is made of this, so a bill, the pending amount,
 * the spend and the history agree.
 */
export const usagePriceOf = (alias: string): RawBuilder<string> =>
  sql<string>`(coalesce(${sql.ref(`${alias}.compute_units`)}, ${sql.ref(`${alias}.usage`)}) * ${sql.ref(`${alias}.unit_price`)})`;

/** Whether a record of account_resource_usage read as `alias` counts RPC calls (not token forwards). */
export const isRpcUsageOf = (alias: string): RawBuilder<boolean> =>
  sql<boolean>`not starts_with(${sql.ref(`${alias}.resource_name`)}, 'TOKEN_FORWARDING_')`;
