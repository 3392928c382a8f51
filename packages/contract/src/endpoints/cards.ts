import { STRIPE_WEBHOOK_PATH, StripeWebhookAnswer, StripeWebhookHeaders } from '../card-events.ts';
import {
  AttachCardBody,
  AttachedCard,
  CardIdBody,
  PaymentCardList,
  PaymentSubscription,
  ProviderParams,
  SetupIntent,
  UpdateCardBody,
} from '../cards.ts';
import { endpoint } from '../endpoint.ts';
import { AccountHeaders } from '../headers.ts';
import { Empty } from '../wrapper.ts';

const cardCall = { access: 'account', tag: 'cards', headers: AccountHeaders } as const;

/** The payment cards (spec A §7 Payments) and the card provider's events. */
export const cardEndpoints = {
  list: endpoint({ ...cardCall, method: 'GET', path: '/api/v1.0/payment/card', response: PaymentCardList }),
  /** Attaches the card the card-entry component confirmed with the provider (its token). */
  attach: endpoint({
    ...cardCall,
    method: 'POST',
    path: '/api/v1.0/payment/card',
    body: AttachCardBody,
    response: AttachedCard,
  }),
  /** spec A §6: may leave out ebs-account-id; the card then names its account. */
  setDefault: endpoint({
    access: 'account',
    tag: 'cards',
    method: 'POST',
    path: '/api/v1.0/payment/card/default',
    body: CardIdBody,
    response: Empty,
  }),
  remove: endpoint({
    ...cardCall,
    method: 'POST',
    path: '/api/v1.0/payment/card/remove',
    body: CardIdBody,
    response: Empty,
  }),
  updateExpiry: endpoint({
    ...cardCall,
    method: 'POST',
    path: '/api/v1.0/payment/card/update',
    body: UpdateCardBody,
    response: Empty,
  }),
  /** Makes the account a customer of the card provider (no body; docs/decisions.md "subscribePayment"). */
  subscribe: endpoint({
    ...cardCall,
    method: 'POST',
    path: '/api/v1.0/payment/subscribePayment',
    response: PaymentSubscription,
  }),
  /** What the card-entry dialog needs to confirm a card with the provider (spec A §3). */
  createSetupIntent: endpoint({
    ...cardCall,
    method: 'GET',
    path: '/api/v1.0/payment/:provider',
    params: ProviderParams,
    response: SetupIntent,
  }),
  /** Stripe's events (refunds, disputes; docs/operations.md "Stripe"): Stripe signs instead of signing in. */
  stripeWebhook: endpoint({
    access: 'public',
    tag: 'card events',
    method: 'POST',
    path: STRIPE_WEBHOOK_PATH,
    headers: StripeWebhookHeaders,
    response: StripeWebhookAnswer,
  }),
};
