import { type Static, Type } from '@sinclair/typebox';

/** The path Stripe sends its events to (docs/operations.md "Stripe": refunds and disputes). */
export const STRIPE_WEBHOOK_PATH = '/api/v1.0/payment/stripe/webhook';

/** Stripe signs every delivery; the body is read raw, as signed, so only the header is a schema. */
export const StripeWebhookHeaders = Type.Object({
  'stripe-signature': Type.String({ minLength: 1, maxLength: 2000 }),
});

/** What Stripe is told: the event is taken (also when it needs nothing, or was taken before). */
export const StripeWebhookAnswer = Type.Object({ received: Type.Literal(true) });
export type StripeWebhookAnswer = Static<typeof StripeWebhookAnswer>;

export const CardEventMessages = {
  signatureRefused: 'The Stripe-Signature header does not match this body, or is too old.',
  bodyRequired: 'A Stripe event is sent as its JSON body.',
} as const;
