// The cards module's face: what the rest of the server may use of it. Everything else in the folder is its own.
export { isExpired } from './card-expiry.ts';
export type { CardProvider, ChargeResult, ProviderCard, SetupIntent } from './card-provider.ts';
export { cardRoutes } from './cards.routes.ts';
export { CardsService, cardLabel, findCard, findDefaultCard } from './cards.service.ts';

/** Stripe's provider, client, events and webhook routes, loaded on first use (the SDK is large). */
export const loadStripe = () => import('./stripe.ts');
