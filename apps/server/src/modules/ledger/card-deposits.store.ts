import type { TransactionType } from '@ebs/contract';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

export const CARD_DEPOSIT_TYPES = ['DEPOSIT_ONE_TIME', 'DEPOSIT_AUTO'] as const satisfies readonly TransactionType[];
export const REVERSAL_TYPES = [
  'REFUND_CARD_DEPOSIT',
  'DISPUTE_CARD_DEPOSIT',
  'DISPUTE_REINSTATED',
] as const satisfies readonly TransactionType[];
export type ReversalType = (typeof REVERSAL_TYPES)[number];

export interface CardDeposit {
  id: string;
  accountId: string;
  amount: string;
}

export interface ReversalRow {
  id: string;
  type: ReversalType;
  amount: string;
  disputeId: string | null;
  key: string | null;
}

/**
 * The completed card deposit paid by a provider's charge, locked until the transaction ends: every
 * reversal of one deposit (an event, its redelivery, the operator's refund) waits for the one
 * before it, so each reads the reversals already written.
 */
export async function lockCardDeposit(db: Db, chargeId: string): Promise<CardDeposit | undefined> {
  const row = await db
    .selectFrom('account_transactions')
    .select(['id', 'account_id', sql<string>`amount::text`.as('amount')])
    .where(sql<string>`metadata->>'chargeId'`, '=', chargeId)
    .where('type', 'in', [...CARD_DEPOSIT_TYPES])
    .where('status', '=', 'COMPLETED')
    .forUpdate()
    .executeTakeFirst();
  return row && { id: row.id, accountId: row.account_id, amount: row.amount };
}

/** The refunds and disputes written for a deposit, oldest first. */
export async function reversalsOf(db: Db, depositId: string): Promise<ReversalRow[]> {
  const rows = await db
    .selectFrom('account_transactions')
    .select([
      'id',
      'type',
      sql<string>`amount::text`.as('amount'),
      sql<string | null>`metadata->>'disputeId'`.as('dispute'),
      'idempotency_key',
    ])
    .where(sql<string>`metadata->>'depositId'`, '=', depositId)
    .where('type', 'in', [...REVERSAL_TYPES])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    type: r.type as ReversalType,
    amount: r.amount,
    disputeId: r.dispute,
    key: r.idempotency_key,
  }));
}
