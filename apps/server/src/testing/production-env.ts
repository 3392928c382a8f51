import { generateKeyPairSync, randomBytes } from 'node:crypto';

/**
 * A whole production environment, as loadConfig requires it with NODE_ENV=production, with fresh
 * secrets and live-mode Stripe keys that reach no one: for tests of what only production does.
 */
export function productionEnv(overrides: Record<string, string> = {}): Record<string, string> {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return {
    NODE_ENV: 'production',
    APP_ENV: 'prod',
    DATABASE_URL: 'postgres://unused@127.0.0.1:9/unused',
    AUTH_SIGNING_KEY: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    AUTH_HMAC_SECRET: randomBytes(32).toString('hex'),
    DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64url'),
    WALLET_MASTER_SEED: randomBytes(32).toString('hex'),
    SMTP_URL: 'smtps://mail.example.com',
    CARD_PROVIDER: 'stripe',
    STRIPE_SECRET_KEY: `sk_live_${randomBytes(12).toString('hex')}`,
    STRIPE_PUBLISHABLE_KEY: `pk_live_${randomBytes(12).toString('hex')}`,
    STRIPE_WEBHOOK_SECRET: `whsec_${randomBytes(24).toString('base64url')}`,
    ...overrides,
  };
}
