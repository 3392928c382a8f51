import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';

/** A Stripe webhook secret for a test server and the events it signs. */
export const testWebhookSecret = () => `whsec_${randomBytes(24).toString('base64url')}`;

const eventId = () => `evt_${randomBytes(12).toString('hex')}`;

/** An event as Stripe delivers it: its id, its type and the object as it was then. */
export function stripeEvent(type: string, object: Record<string, unknown>, id = eventId()): string {
  return JSON.stringify({
    id,
    object: 'event',
    api_version: '2026-10-28.endive',
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object },
  });
}

/** A charge of a PaymentIntent after refunds of `refundedCents` in all (Stripe's cumulative amount_refunded). */
export const refundedCharge = (intent: Stripe.PaymentIntent, refundedCents: number) => ({
  id: typeof intent.latest_charge === 'string' ? intent.latest_charge : intent.latest_charge?.id,
  object: 'charge',
  amount: intent.amount,
  amount_captured: intent.amount,
  amount_refunded: refundedCents,
  currency: intent.currency,
  payment_intent: intent.id,
  paid: true,
  captured: true,
  refunded: refundedCents === intent.amount,
  status: 'succeeded',
});

/** A dispute of a PaymentIntent's charge, as its events carry it. */
export const dispute = (intent: Stripe.PaymentIntent, disputeId: string, cents: number, status: string) => ({
  id: disputeId,
  object: 'dispute',
  amount: cents,
  currency: intent.currency,
  charge: typeof intent.latest_charge === 'string' ? intent.latest_charge : intent.latest_charge?.id,
  payment_intent: intent.id,
  reason: 'fraudulent',
  status,
  is_charge_refundable: false,
  livemode: false,
  created: Math.floor(Date.now() / 1000),
});

/** Sends a body to the webhook endpoint with Stripe's signature header made with `secret` at `timestamp`. */
export async function deliver(
  baseUrl: string,
  body: string,
  secret: string,
  timestamp = Math.floor(Date.now() / 1000),
): Promise<{ status: number; message: string }> {
  const signature = Stripe.webhooks.generateTestHeaderString({ payload: body, secret, timestamp });
  const answer = await fetch(`${baseUrl}/api/v1.0/payment/stripe/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signature },
    body,
  });
  const json = (await answer.json()) as { message: string };
  return { status: answer.status, message: json.message };
}
