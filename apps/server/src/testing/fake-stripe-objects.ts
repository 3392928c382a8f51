import { randomBytes } from 'node:crypto';
import type Stripe from 'stripe';

/** Stripe's objects and errors as its API reference shows them, for the local stand-in (fake-stripe.ts). */

export interface TestCard {
  number: string;
  exp_month?: number;
  exp_year?: number;
}

export type Behaviour =
  | 'succeed'
  | 'decline_charges'
  | 'insufficient_funds'
  | 'authentication_required'
  | 'decline_setup';

/** Stripe's test card numbers (docs: "Test card numbers"). */
export const TEST_CARDS: Record<string, { brand: string; behaviour: Behaviour }> = {
  '4242424242424242': { brand: 'visa', behaviour: 'succeed' },
  '5555555555554444': { brand: 'mastercard', behaviour: 'succeed' },
  '4000000000000341': { brand: 'visa', behaviour: 'decline_charges' },
  '4000000000009995': { brand: 'visa', behaviour: 'insufficient_funds' },
  '4000002760003184': { brand: 'visa', behaviour: 'authentication_required' },
  '4000000000000002': { brand: 'visa', behaviour: 'decline_setup' },
};

export const DECLINES = {
  decline_charges: { code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' },
  insufficient_funds: {
    code: 'card_declined',
    decline_code: 'insufficient_funds',
    message: 'Your card has insufficient funds.',
  },
  authentication_required: {
    code: 'authentication_required',
    decline_code: 'authentication_required',
    message: 'Your card was declined. This transaction requires authentication.',
  },
} as const;

export const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
export const now = () => Math.floor(Date.now() / 1000);

export class StripeFailure {
  constructor(
    readonly status: number,
    readonly error: Record<string, unknown>,
  ) {}
}
export const missing = (what: string, value: string) =>
  new StripeFailure(404, {
    type: 'invalid_request_error',
    code: 'resource_missing',
    message: `No such ${what}: '${value}'`,
    param: 'id',
  });

export type Decline = (typeof DECLINES)[keyof typeof DECLINES];

/** The charge a PaymentIntent's confirmation made: paid with a receipt, or failed as the card's issuer said. */
export function chargeObject(
  chargeId: string,
  intent: Stripe.PaymentIntent,
  decline: Decline | undefined,
): Stripe.Charge {
  return {
    id: chargeId,
    object: 'charge',
    amount: intent.amount,
    currency: intent.currency,
    customer: intent.customer,
    payment_intent: intent.id,
    payment_method: intent.payment_method,
    paid: !decline,
    status: decline ? 'failed' : 'succeeded',
    failure_code: decline?.code ?? null,
    failure_message: decline?.message ?? null,
    receipt_url: decline ? null : `https://pay.stripe.com/receipts/payment/${randomBytes(16).toString('hex')}`,
    outcome: decline
      ? { type: 'issuer_declined', network_status: 'declined_by_network', seller_message: 'The bank declined.' }
      : { type: 'authorized', network_status: 'approved_by_network', seller_message: 'Payment complete.' },
    created: now(),
    livemode: false,
  } as unknown as Stripe.Charge;
}

/** A card payment method attached to a customer, as a confirmed setup intent leaves it. */
export function paymentMethodObject(
  methodId: string,
  customer: string,
  card: TestCard,
  brand: string,
): Stripe.PaymentMethod {
  return {
    id: methodId,
    object: 'payment_method',
    type: 'card',
    customer,
    card: {
      brand,
      last4: card.number.slice(-4),
      exp_month: card.exp_month ?? 12,
      exp_year: card.exp_year ?? 2034,
      funding: 'credit',
      country: 'US',
    },
    billing_details: { address: null, email: null, name: null, phone: null },
    metadata: {},
    created: now(),
    livemode: false,
  } as unknown as Stripe.PaymentMethod;
}
