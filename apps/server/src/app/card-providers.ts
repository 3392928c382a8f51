import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { type CardProvider, loadStripe } from '../modules/cards/index.ts';
import { LocalCardProcessor } from '../modules/processor/index.ts';

export interface CardProviders {
  /** The provider every card and charge goes to (CARD_PROVIDER). */
  provider: CardProvider;
  /** The local processor when it is the provider: its browser-facing routes are served only then. */
  processor?: LocalCardProcessor;
}

/** The configured card provider; the Stripe SDK is loaded only when Stripe is the one. */
export async function buildCardProvider(config: Config, db: Db): Promise<CardProviders> {
  if (config.CARD_PROVIDER === 'stripe') {
    const { StripeCardProvider, stripeClient } = await loadStripe();
    return { provider: new StripeCardProvider(stripeClient(config)) };
  }
  const processor = new LocalCardProcessor(db, config.PUBLIC_URL);
  return { provider: processor, processor };
}
