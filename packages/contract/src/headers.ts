import { Type } from '@sinclair/typebox';
import { ThirdPartyProvider } from './third-party.ts';

export const ACCOUNT_HEADER = 'ebs-account-id';

/** Account-scoped calls name the current account in `ebs-account-id`. */
export const AccountHeaders = Type.Object({ [ACCOUNT_HEADER]: Type.String({ format: 'uuid' }) });

/** Public configuration the web app reads at start-up (never a secret). */
export const PublicConfig = Type.Object({
  appEnv: Type.String(),
  docsUrl: Type.String(),
  apiBase: Type.String(),
  productName: Type.String(),
  /** Who confirms cards in the browser: the built-in local processor, or Stripe (Elements); absent means local. */
  cardProvider: Type.Optional(Type.Union([Type.Literal('local'), Type.Literal('stripe')])),
  /** Stripe's publishable key, sent only when cardProvider is stripe (the secret key never is). */
  stripePublishableKey: Type.Optional(Type.String()),
  /** The third-party sign-in buttons: the first provider, and the second outside prod; absent means none configured. */
  thirdPartyProviders: Type.Optional(Type.Array(ThirdPartyProvider)),
  /** The analytics tag to start: sent only in the prod environment, when one is configured. */
  analyticsScriptUrl: Type.Optional(Type.String()),
});
export type PublicConfig = import('@sinclair/typebox').Static<typeof PublicConfig>;

/** GET /api/v1.0/health: this process answers and reaches its database. */
export const HealthStatus = Type.Object({ status: Type.Literal('ok') });

/** The development outbox's filter: the mails to one address (normalized as sign-up does). */
export const MailboxQuery = Type.Object({ to: Type.Optional(Type.String({ maxLength: 320 })) });

/** One command of the admin command line, as its arguments (`accounts list --json`). */
export const AdminCommandBody = Type.Object({
  args: Type.Array(Type.String({ maxLength: 500 }), { maxItems: 20 }),
});
