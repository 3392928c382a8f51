import { type Kysely, sql } from 'kysely';

/**
 * Refunds and disputes of card deposits (docs/operations.md "Stripe"):
 * - `card_provider_events`: the ids of the card provider's events already taken, so a redelivered
 *   event changes nothing (written in the same transaction as the ledger rows it made).
 * - `processor_refunds`: the local card processor's refunds of its charges, several per charge.
 * - A deposit is found by its provider's charge id, and its reversals by the deposit's id (both in
 *   the rows' metadata), through indexes of their own rather than by reading the whole ledger.
 */
const UP = [
  `create table card_provider_events (
    id text primary key,
    type text not null,
    received_at timestamptz not null default now()
  )`,
  `create table processor_refunds (
    id text primary key,
    charge_id text not null references processor_charges(id),
    amount numeric(20, 6) not null check (amount > 0),
    created_at timestamptz not null default now()
  )`,
  'create index processor_refunds_charge on processor_refunds (charge_id)',
  `create index account_transactions_card_charge on account_transactions ((metadata->>'chargeId'))
    where type in ('DEPOSIT_ONE_TIME', 'DEPOSIT_AUTO')`,
  `create index account_transactions_reversed_deposit on account_transactions ((metadata->>'depositId'))
    where type in ('REFUND_CARD_DEPOSIT', 'DISPUTE_CARD_DEPOSIT', 'DISPUTE_REINSTATED')`,
];

const DOWN = [
  'drop index account_transactions_reversed_deposit',
  'drop index account_transactions_card_charge',
  'drop table processor_refunds',
  'drop table card_provider_events',
];

async function run(db: Kysely<unknown>, statements: string[]): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export const up = (db: Kysely<unknown>) => run(db, UP);
export const down = (db: Kysely<unknown>) => run(db, DOWN);
