import type { PaymentCard } from '@ebs/contract';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

export interface CardRow {
  id: string;
  accountId: string;
  providerToken: string;
  isDefault: boolean;
}

const live = (db: Db) => db.selectFrom('payment_cards').where('removed_at', 'is', null);

export async function listCards(db: Db, accountId: string): Promise<PaymentCard[]> {
  const rows = await live(db)
    .select(['id', 'is_default', 'brand', 'last4', 'exp_month', 'exp_year'])
    .where('account_id', '=', accountId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    defaultPaymentMethod: r.is_default,
    card: { brand: r.brand, last4: r.last4, exp_month: r.exp_month, exp_year: r.exp_year },
  }));
}

/** A live card by id, in any account (the caller checks the account). */
export async function findCard(db: Db, cardId: string): Promise<CardRow | undefined> {
  const row = await live(db)
    .select(['id', 'account_id', 'provider_token', 'is_default'])
    .where('id', '=', cardId)
    .executeTakeFirst();
  return row && { id: row.id, accountId: row.account_id, providerToken: row.provider_token, isDefault: row.is_default };
}

/** The account's live default card, if it has one. */
export async function findDefaultCard(db: Db, accountId: string): Promise<CardRow | undefined> {
  const row = await live(db)
    .select(['id', 'account_id', 'provider_token', 'is_default'])
    .where('account_id', '=', accountId)
    .where('is_default', '=', true)
    .executeTakeFirst();
  return row && { id: row.id, accountId: row.account_id, providerToken: row.provider_token, isDefault: row.is_default };
}

export async function countCards(db: Db, accountId: string): Promise<number> {
  const row = await live(db)
    .select(sql<string>`count(*)`.as('n'))
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function hasToken(db: Db, accountId: string, token: string): Promise<boolean> {
  const row = await live(db)
    .select('id')
    .where('account_id', '=', accountId)
    .where('provider_token', '=', token)
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertCard(
  db: Db,
  card: {
    accountId: string;
    provider: string;
    token: string;
    brand: string;
    last4: string;
    expMonth: number;
    expYear: number;
    isDefault: boolean;
  },
): Promise<string> {
  const { id } = await db
    .insertInto('payment_cards')
    .values({
      account_id: card.accountId,
      provider: card.provider,
      provider_token: card.token,
      brand: card.brand,
      last4: card.last4,
      exp_month: card.expMonth,
      exp_year: card.expYear,
      is_default: card.isDefault,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** Makes one card the default and every other card of its account not (run inside a transaction). */
export async function makeDefault(db: Db, accountId: string, cardId: string): Promise<void> {
  await db
    .updateTable('payment_cards')
    .set({ is_default: false })
    .where('account_id', '=', accountId)
    .where('is_default', '=', true)
    .execute();
  await db.updateTable('payment_cards').set({ is_default: true }).where('id', '=', cardId).execute();
}

export async function markRemoved(db: Db, cardId: string): Promise<void> {
  await db
    .updateTable('payment_cards')
    .set({ removed_at: sql`now()`, is_default: false })
    .where('id', '=', cardId)
    .execute();
}

export async function setExpiry(db: Db, cardId: string, expMonth: number, expYear: number): Promise<void> {
  await db
    .updateTable('payment_cards')
    .set({ exp_month: expMonth, exp_year: expYear })
    .where('id', '=', cardId)
    .execute();
}

/** Deletes every card row of an account (a discarded draft's); answers the live cards' tokens. */
export async function deleteCardsOf(db: Db, accountId: string): Promise<string[]> {
  const rows = await db
    .deleteFrom('payment_cards')
    .where('account_id', '=', accountId)
    .returning(['provider_token', 'removed_at'])
    .execute();
  return rows.filter((r) => r.removed_at === null).map((r) => r.provider_token);
}
