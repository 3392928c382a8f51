import type { Insertable } from 'kysely';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { ProcessorChargesTable, ProcessorSetupIntentsTable } from '../../db/schema.ts';
import type { CheckedCard } from './card-number.ts';

export async function insertCustomer(db: Db, id: string): Promise<void> {
  await db.insertInto('processor_customers').values({ id }).execute();
}

export async function insertSetupIntent(
  db: Db,
  intent: { id: string; clientSecretHash: string; customerId: string; accountId: string },
): Promise<void> {
  await db
    .insertInto('processor_setup_intents')
    .values({
      id: intent.id,
      client_secret_hash: intent.clientSecretHash,
      customer_id: intent.customerId,
      account_id: intent.accountId,
      status: 'REQUIRES_PAYMENT_METHOD',
    })
    .execute();
}

export async function findSetupIntent(db: Db, id: string) {
  return db
    .selectFrom('processor_setup_intents')
    .select(['id', 'client_secret_hash', 'customer_id', 'status', 'payment_method_id'])
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function updateSetupIntent(
  db: Db,
  id: string,
  fromStatuses: ProcessorSetupIntentsTable['status'][],
  change: { status: ProcessorSetupIntentsTable['status']; paymentMethodId?: string; lastError?: string | null },
): Promise<boolean> {
  const row = await db
    .updateTable('processor_setup_intents')
    .set({
      status: change.status,
      ...(change.paymentMethodId ? { payment_method_id: change.paymentMethodId } : {}),
      last_error: change.lastError ?? null,
    })
    .where('id', '=', id)
    .where('status', 'in', fromStatuses)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertPaymentMethod(db: Db, id: string, card: CheckedCard): Promise<void> {
  await db
    .insertInto('processor_payment_methods')
    .values({
      id,
      brand: card.brand,
      last4: card.last4,
      exp_month: card.expMonth,
      exp_year: card.expYear,
      behaviour: card.behaviour,
    })
    .execute();
}

export async function attachPaymentMethod(db: Db, id: string, customerId: string): Promise<void> {
  await db.updateTable('processor_payment_methods').set({ customer_id: customerId }).where('id', '=', id).execute();
}

/** A payment method the customer holds (attached, not detached). */
export async function findCustomerPaymentMethod(db: Db, customerId: string, id: string) {
  return db
    .selectFrom('processor_payment_methods')
    .select(['id', 'brand', 'last4', 'exp_month', 'exp_year', 'behaviour'])
    .where('id', '=', id)
    .where('customer_id', '=', customerId)
    .where('detached_at', 'is', null)
    .executeTakeFirst();
}

export async function setPaymentMethodExpiry(db: Db, id: string, expMonth: number, expYear: number): Promise<void> {
  await db
    .updateTable('processor_payment_methods')
    .set({ exp_month: expMonth, exp_year: expYear })
    .where('id', '=', id)
    .execute();
}

export async function detachPaymentMethod(db: Db, id: string): Promise<void> {
  await db.updateTable('processor_payment_methods').set({ detached_at: new Date() }).where('id', '=', id).execute();
}

export async function findChargeByKey(db: Db, idempotencyKey: string) {
  return db
    .selectFrom('processor_charges')
    .select(['id', 'status', 'failure_message', 'amount', 'payment_method_id'])
    .where('idempotency_key', '=', idempotencyKey)
    .executeTakeFirst();
}

/** Inserts a charge; false when another request with the same key was first. */
export async function insertCharge(db: Db, charge: Insertable<ProcessorChargesTable>): Promise<boolean> {
  const row = await db
    .insertInto('processor_charges')
    .values(charge)
    .onConflict((c) => c.column('idempotency_key').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function findCharge(db: Db, id: string) {
  return db
    .selectFrom('processor_charges as c')
    .innerJoin('processor_payment_methods as pm', 'pm.id', 'c.payment_method_id')
    .select(['c.id', 'c.amount', 'c.currency', 'c.description', 'c.status', 'c.created_at', 'pm.brand', 'pm.last4'])
    .where('c.id', '=', id)
    .executeTakeFirst();
}

/** A charge and what its refunds add up to, locked until the transaction ends (one refund at a time). */
export async function lockChargeForRefund(db: Db, id: string) {
  const charge = await db
    .selectFrom('processor_charges')
    .select(['id', 'status', sql<string>`amount::text`.as('amount')])
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  if (!charge) return undefined;
  const refunded = await db
    .selectFrom('processor_refunds')
    .select(sql<string>`coalesce(sum(amount), 0)::text`.as('total'))
    .where('charge_id', '=', id)
    .executeTakeFirstOrThrow();
  return { ...charge, refunded: refunded.total };
}

export async function insertRefund(db: Db, refund: { id: string; chargeId: string; amount: string }): Promise<void> {
  await db
    .insertInto('processor_refunds')
    .values({ id: refund.id, charge_id: refund.chargeId, amount: refund.amount })
    .execute();
}
