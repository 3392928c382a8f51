import { type RawBuilder, sql } from 'kysely';

/**
 * A user's membership of an account as SQL expressions another query may select (the guards read
 * them with the caller's session in one round trip), each null when the user is not a member.
 */

/** The user's role in the account. */
export const memberRoleOf = (accountId: string, userId: string): RawBuilder<string | null> =>
  sql<string | null>`(select m.role_name from account_members m
    where m.account_id = ${accountId} and m.user_id = ${userId})`;

/** Whether the account the user is a member of is still the creation wizard's draft. */
export const memberAccountIsDraftOf = (accountId: string, userId: string): RawBuilder<boolean | null> =>
  sql<boolean | null>`(select a.is_draft from account_members m join accounts a on a.id = m.account_id
    where m.account_id = ${accountId} and m.user_id = ${userId})`;
