import type { FastifyBaseLogger } from 'fastify';
import Stripe from 'stripe';
import type { Db } from '../../db/database.ts';
import { type CardReversal, recordCardReversal } from '../billing/index.ts';
import { centsToMicros } from '../ledger/index.ts';
import { claimProviderEvent } from './card-events.store.ts';

const idOf = (value: string | { id: string } | null | undefined) => (typeof value === 'string' ? value : value?.id);

/**
 * The ledger's reading of a Stripe event, or undefined for an event it does not act on. A deposit
 * keeps its PaymentIntent's id as its charge id (StripeCardProvider.charge), which charges and
 * disputes name too.
 */
export function reversalOf(event: Stripe.Event): CardReversal | undefined {
  if (event.type === 'charge.refunded') {
    const charge = event.data.object;
    if (charge.currency !== 'usd') return undefined;
    const chargeId = idOf(charge.payment_intent) ?? charge.id;
    return { kind: 'refund', chargeId, refundedTotal: centsToMicros(charge.amount_refunded) };
  }
  if (!event.type.startsWith('charge.dispute.')) return undefined;
  const dispute = event.data.object as Stripe.Dispute;
  const chargeId = idOf(dispute.payment_intent) ?? idOf(dispute.charge);
  if (!chargeId || dispute.currency !== 'usd') return undefined;
  // An inquiry (`warning_…`) withdraws no funds, so it takes nothing, and its closing gives nothing back.
  if (dispute.status.startsWith('warning_')) return undefined;
  const base = { chargeId, disputeId: dispute.id, amount: centsToMicros(dispute.amount) };
  switch (event.type) {
    case 'charge.dispute.created':
    case 'charge.dispute.funds_withdrawn':
      return { kind: 'dispute-taken', ...base };
    case 'charge.dispute.funds_reinstated':
      return { kind: 'dispute-won', ...base };
    case 'charge.dispute.closed':
      return dispute.status === 'won' ? { kind: 'dispute-won', ...base } : undefined;
    default:
      return undefined;
  }
}

/**
 * Stripe's signed events about the console's charges: refunds and disputes made at Stripe reach the
 * ledger here. An event is verified on its raw body with the endpoint's secret (and Stripe's
 * five-minute tolerance against replays), then taken once: its id is recorded in the same
 * transaction as the ledger rows it makes, so a redelivery finds it and changes nothing.
 */
export class StripeEvents {
  constructor(
    private readonly db: Db,
    private readonly secret: string,
    private readonly log: FastifyBaseLogger,
  ) {}

  /**
   * The event, when the signature holds and was made within the tolerance either way (the library
   * checks only the past); throws Stripe's SignatureVerificationError otherwise.
   */
  async verify(body: string, signature: string): Promise<Stripe.Event> {
    const tolerance = Stripe.webhooks.DEFAULT_TOLERANCE;
    const event = await Stripe.webhooks.constructEventAsync(body, signature, this.secret, tolerance);
    const signedAt = Number(/(?:^|,)t=(\d+)/.exec(signature)?.[1]);
    if (!(signedAt <= Date.now() / 1000 + tolerance)) {
      throw new Stripe.errors.StripeSignatureVerificationError(signature, body, {
        message: 'Timestamp is in the future',
      });
    }
    return event;
  }

  async take(event: Stripe.Event): Promise<void> {
    const reversal = reversalOf(event);
    if (!reversal) return;
    const outcome = await this.db.transaction().execute(async (trx) => {
      if (!(await claimProviderEvent(trx, event.id, event.type))) return undefined;
      return recordCardReversal(trx, reversal);
    });
    if (outcome?.status === 'unknown-charge') {
      this.log.warn(
        { event: event.id, type: event.type, charge: reversal.chargeId },
        'Stripe event names a charge that paid no completed deposit; nothing changed',
      );
    } else if (outcome?.status === 'recorded') {
      this.log.info(
        { event: event.id, type: event.type, account: outcome.accountId, transactions: outcome.transactionIds },
        'card deposit reversal recorded',
      );
    }
  }
}
