// Stripe's parts of the cards module, in a file of their own so that the Stripe SDK is loaded only
// where Stripe is the card provider (the face hands them out through `loadStripe`).
export { stripeClient } from './stripe-client.ts';
export { StripeEvents } from './stripe-events.service.ts';
export { StripeCardProvider } from './stripe-provider.ts';
export { stripeWebhookRoutes } from './stripe-webhook.routes.ts';
