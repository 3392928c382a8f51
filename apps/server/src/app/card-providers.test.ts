import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.ts';
import type { Db } from '../db/database.ts';
import { StripeCardProvider } from '../modules/cards/stripe-provider.ts';
import { LocalCardProcessor } from '../modules/processor/local-processor.ts';
import { buildCardProvider } from './card-providers.ts';

const SECRET = 'sk_test_51SecretThatMustNeverBeEchoed';
const PUBLISHABLE = 'pk_test_51Publishable';
const stripeEnv = { CARD_PROVIDER: 'stripe', STRIPE_SECRET_KEY: SECRET, STRIPE_PUBLISHABLE_KEY: PUBLISHABLE };

/** The configuration error's message, or undefined when the environment loads. */
const refusal = (env: Record<string, string>) => {
  try {
    loadConfig(env);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
};

describe('the card provider configuration', () => {
  it('is the local processor unless CARD_PROVIDER says stripe', async () => {
    const config = loadConfig({});
    expect(config.CARD_PROVIDER).toBe('local');
    const built = await buildCardProvider(config, {} as Db);
    expect(built.provider).toBeInstanceOf(LocalCardProcessor);
    expect(built.processor).toBe(built.provider);
  });

  it('is Stripe with both keys, and then serves no local processor', async () => {
    const built = await buildCardProvider(loadConfig(stripeEnv), {} as Db);
    expect(built.provider).toBeInstanceOf(StripeCardProvider);
    expect(built.provider.name).toBe('stripe');
    expect(built.processor).toBeUndefined();
  });

  it('requires both Stripe keys, of one mode, and never echoes the secret key', () => {
    expect(refusal({ CARD_PROVIDER: 'stripe', STRIPE_PUBLISHABLE_KEY: PUBLISHABLE })).toBe(
      'Invalid configuration: STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY are required when CARD_PROVIDER=stripe',
    );
    expect(refusal({ CARD_PROVIDER: 'stripe', STRIPE_SECRET_KEY: SECRET })).toMatch(/are required/);
    const wrongSecret = refusal({ ...stripeEnv, STRIPE_SECRET_KEY: 'pk_test_51SecretThatMustNeverBeEchoed' });
    expect(wrongSecret).toBe(
      'Invalid configuration: STRIPE_SECRET_KEY must be a Stripe secret key (sk_test_… or sk_live_…)',
    );
    expect(refusal({ ...stripeEnv, STRIPE_PUBLISHABLE_KEY: 'pk_live_51Publishable' })).toBe(
      'Invalid configuration: STRIPE_PUBLISHABLE_KEY must be a test key like STRIPE_SECRET_KEY',
    );
    expect(refusal({ ...stripeEnv, STRIPE_PUBLISHABLE_KEY: 'sk_test_1' })).toMatch(
      /^Invalid configuration: STRIPE_PUBLISHABLE_KEY/,
    );
    expect(refusal({ ...stripeEnv, CARD_PROVIDER: 'paypal' })).toMatch(/^Invalid configuration: CARD_PROVIDER/);
    expect(
      refusal({ ...stripeEnv, STRIPE_SECRET_KEY: 'rk_live_51Restricted', STRIPE_PUBLISHABLE_KEY: 'pk_live_1' }),
    ).toBe(undefined);
  });

  it('takes STRIPE_API_BASE as an origin only', () => {
    expect(refusal({ ...stripeEnv, STRIPE_API_BASE: 'http://127.0.0.1:12111' })).toBeUndefined();
    expect(refusal({ ...stripeEnv, STRIPE_API_BASE: 'http://127.0.0.1:12111/v1' })).toMatch(/STRIPE_API_BASE/);
    expect(refusal({ ...stripeEnv, STRIPE_API_BASE: 'ftp://stripe.test' })).toMatch(/STRIPE_API_BASE/);
  });
});
