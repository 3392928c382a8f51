import path from 'node:path';
import { isNetwork, type Network, THIRD_PARTY_DEFAULT_NAMES } from '@ebs/contract';
import { type Static, Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { ConfigError } from './config-error.ts';
import { readRpcSettings, type UpstreamEntry } from './config-rpc.ts';

const Env = Type.Object({
  NODE_ENV: Type.Union([Type.Literal('development'), Type.Literal('production'), Type.Literal('test')], {
    default: 'development',
  }),
  APP_ENV: Type.Union([Type.Literal('dev'), Type.Literal('staging'), Type.Literal('prod')], { default: 'dev' }),
  /** Where the server listens: every interface in production, this machine only elsewhere. */
  HOST: Type.Optional(Type.String({ minLength: 1 })),
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 8080 }),
  DATA_DIR: Type.String({ minLength: 1, default: './data' }),
  DATABASE_URL: Type.Optional(Type.String({ pattern: '^postgres(ql)?://' })),
  SMTP_URL: Type.Optional(Type.String({ pattern: '^smtps?://' })),
  MAIL_FROM: Type.String({ default: 'EBS Console <no-reply@localhost>' }),
  /** The console's own address; `http://localhost:<PORT>` when unset. */
  PUBLIC_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  DOCS_URL: Type.String({ pattern: '^https?://', default: 'https://docs.ebs.example/' }),
  PRODUCT_NAME: Type.String({ minLength: 1, default: 'EBS Console' }),
  ID_TOKEN_TTL_SECONDS: Type.Integer({ minimum: 1, maximum: 86_400, default: 900 }),
  REFRESH_TOKEN_TTL_SECONDS: Type.Integer({ minimum: 60, default: 30 * 86_400 }),
  SIGN_UP_CODE_TTL_SECONDS: Type.Integer({ minimum: 1, default: 86_400 }),
  RESET_CODE_TTL_SECONDS: Type.Integer({ minimum: 1, default: 3_600 }),
  RESEND_COOLDOWN_SECONDS: Type.Integer({ minimum: 0, default: 60 }),
  COOKIE_SECURE: Type.Optional(Type.Boolean()),
  /** Behind a load balancer: how many proxy hops to trust for the client IP (rate limits are per IP). */
  TRUST_PROXY: Type.Integer({ minimum: 0, maximum: 10, default: 0 }),
  AUTH_SIGNING_KEY: Type.Optional(Type.String({ minLength: 1 })),
  AUTH_HMAC_SECRET: Type.Optional(Type.String({ minLength: 32 })),
  /** 32 bytes, base64url: seals secrets kept in the database (account signing secrets). */
  DATA_ENCRYPTION_KEY: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_-]{43}$' })),
  /** Where Contact Us messages are e-mailed (the dev outbox unless SMTP_URL is set). */
  SUPPORT_EMAIL: Type.String({ pattern: '^[^@\\s]+@[^@\\s]+$', default: 'support@localhost' }),
  /** Redis for rate limits shared by every server process (otherwise each process counts its own). */
  REDIS_URL: Type.Optional(Type.String({ pattern: '^rediss?://' })),
  /** How often the background jobs run; 0 turns them off. */
  JOBS_INTERVAL_SECONDS: Type.Integer({ minimum: 0, default: 60 }),
  /**
   * Upstream JSON-RPC nodes per network path, as JSON: {"ethereum/mainnet": ["https://a", "wss://a/ws", "https://b"]}:
   * the http(s) entries serve calls, the ws(s) entries subscriptions (each in order of preference).
   * A network without upstreams uses a local Anvil node outside production.
   */
  RPC_UPSTREAMS: Type.Optional(Type.String({ minLength: 2 })),
  /** Comma-separated methods (a trailing `*` for a namespace) refused besides the gateway's own list. */
  RPC_BLOCKED_METHODS: Type.Optional(Type.String()),
  /** Comma-separated methods served even when blocked: re-opens chosen ones, or with RPC_BLOCKED_METHODS=* the only ones. */
  RPC_ALLOWED_METHODS: Type.Optional(Type.String()),
  /** Failed key checks one client address may make per minute before the gateway refuses its requests (0: off). */
  RPC_FAILED_KEY_CHECKS_PER_MINUTE: Type.Integer({ minimum: 0, default: 60 }),
  /** How long the gateway waits for an upstream's answer before trying the next or giving up. */
  RPC_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 600_000, default: 30_000 }),
  RPC_MAX_BODY_BYTES: Type.Integer({ minimum: 1024, maximum: 50 * 1024 * 1024, default: 1024 * 1024 }),
  RPC_MAX_BATCH: Type.Integer({ minimum: 1, maximum: 10_000, default: 100 }),
  /**
   * The largest node answer the gateway holds whole for one request (a batch it composes, a merged
   * call, a WebSocket message), and the node answers it holds at once across the process.
   */
  RPC_MAX_ANSWER_BYTES: Type.Integer({ minimum: 64 * 1024, maximum: 1024 * 1024 * 1024, default: 16 * 1024 * 1024 }),
  RPC_ANSWER_MEMORY_MB: Type.Number({ minimum: 1, maximum: 65_536, default: 256 }),
  /**
   * Calls per second, and per UTC day, per API key at the gateway (each call of a batch counts); 0
   * turns a limit off. A key's own limits may only be lower.
   */
  RPC_RATE_LIMIT_PER_SECOND: Type.Integer({ minimum: 0, default: 0 }),
  RPC_RATE_LIMIT_PER_DAY: Type.Integer({ minimum: 0, default: 0 }),
  /**
   * Card setups (setup intents, attaches) and deposits, each counted per account and per user: past
   * either a minute's or a day's number, 429. A card-testing run needs many; a person a few.
   */
  PAYMENT_RATE_LIMIT_PER_MINUTE: Type.Integer({ minimum: 1, default: 10 }),
  PAYMENT_RATE_LIMIT_PER_DAY: Type.Integer({ minimum: 1, default: 50 }),
  /**
   * The gateway's response cache, per network, in MiB (0 turns it off): answers that cannot change
   * (docs/api.md "Caching and limits"), the least recently used dropped first.
   */
  RPC_CACHE_MB: Type.Number({ minimum: 0, maximum: 4096, default: 16 }),
  /**
   * Blocks below the head before an answer at a block is cached, per network path, as JSON
   * ({"polygon/mainnet": 256}); networks left out keep their default (docs/operations.md).
   */
  RPC_CACHE_DEPTHS: Type.Optional(Type.String({ minLength: 2 })),
  /** How often the gateway reads a network's head while the network is in use. */
  RPC_HEAD_POLL_MS: Type.Integer({ minimum: 100, maximum: 60_000, default: 2000 }),
  /** eth_getLogs: the largest block range a call may ask for, and the most logs an answer may hold (0: no limit). */
  RPC_GET_LOGS_MAX_RANGE: Type.Integer({ minimum: 0, default: 10_000 }),
  RPC_GET_LOGS_MAX_RESULTS: Type.Integer({ minimum: 0, default: 10_000 }),
  /**
   * The first cool-down of a node marked down (at least half of its last 20 calls failed): it doubles
   * at each failed try, up to 60 s, and the node is then tried with one call.
   */
  RPC_HEALTH_CHECK_SECONDS: Type.Integer({ minimum: 1, maximum: 60, default: 5 }),
  /** A node more than this many blocks below its network's best head gets no call that reads the head. */
  RPC_MAX_LAG_BLOCKS: Type.Integer({ minimum: 0, maximum: 100_000, default: 3 }),
  /** The same per network path, as JSON ({"bsc/mainnet": 10}); networks left out keep RPC_MAX_LAG_BLOCKS. */
  RPC_MAX_LAG_BLOCKS_BY_NETWORK: Type.Optional(Type.String({ minLength: 2 })),
  /**
   * A read not answered within this many ms is also sent to a second node (at most 10 % of calls);
   * unset: the node's own p95 over the last minute, at least 50 ms; 0 turns hedging off.
   */
  RPC_HEDGE_MS: Type.Optional(Type.Integer({ minimum: 0, maximum: 600_000 })),
  /** eth_sendRawTransaction goes to every healthy node of the network at once, the first success answered. */
  RPC_BROADCAST_SENDS: Type.Boolean({ default: false }),
  /**
   * WebSocket endpoints: open connections, and subscriptions, per API key in each server process;
   * and how often a connection is pinged (one that has not answered the last ping is closed).
   */
  RPC_WS_MAX_CONNECTIONS_PER_KEY: Type.Integer({ minimum: 1, default: 100 }),
  RPC_WS_MAX_SUBSCRIPTIONS_PER_KEY: Type.Integer({ minimum: 1, default: 1000 }),
  /** The same per account, across all its keys: keys are cheap to make, an account's share is not. */
  RPC_WS_MAX_CONNECTIONS_PER_ACCOUNT: Type.Integer({ minimum: 1, default: 200 }),
  RPC_WS_MAX_SUBSCRIPTIONS_PER_ACCOUNT: Type.Integer({ minimum: 1, default: 2000 }),
  RPC_WS_PING_SECONDS: Type.Number({ minimum: 0.1, maximum: 3600, default: 30 }),
  /**
   * Turns on `GET /metrics` (Prometheus text) for `Authorization: Bearer <METRICS_TOKEN>`; without
   * it /metrics is not served (docs/operations.md "Metrics").
   */
  METRICS_TOKEN: Type.Optional(Type.String({ minLength: 16 })),
  /**
   * The gateway's per-method figures and request log (the Analytics and Requests pages); false
   * records neither. Written with the usage, every USAGE_FLUSH_SECONDS.
   */
  RPC_INSIGHT: Type.Boolean({ default: true }),
  /** How often counted usage is written to the database (and always at shutdown). */
  USAGE_FLUSH_SECONDS: Type.Number({ exclusiveMinimum: 0, maximum: 60, default: 5 }),
  /**
   * Token forwarding wallets' master seed: 32 or more bytes as hex. Required in production; the
   * embedded default generates one into DATA_DIR. Never logged, never sent to the browser.
   */
  WALLET_MASTER_SEED: Type.Optional(Type.String({ pattern: '^(0x)?([0-9a-fA-F]{2}){32,64}$' })),
  /** Runs the forwarding engine and the webhook deliveries in this process ("off" for a separate one). */
  FORWARDING_ENGINE: Type.Union([Type.Literal('on'), Type.Literal('off')], { default: 'on' }),
  /** How often the forwarding engine scans the enabled wallets and moves open forwards on. */
  FORWARDING_SCAN_SECONDS: Type.Number({ minimum: 0.2, maximum: 3600, default: 5 }),
  /** Confirmations per network, as JSON: {"ETHEREUM_MAINNET": 12}. Local nodes need 1. */
  FORWARDING_CONFIRMATIONS: Type.Optional(Type.String({ minLength: 2 })),
  /** Runs the address-activity webhooks' scanners and deliveries in this process ("off" for a separate one). */
  NOTIFY_ENGINE: Type.Union([Type.Literal('on'), Type.Literal('off')], { default: 'on' }),
  /** How often the address-activity engine asks each watched network for new blocks and sends what is due. */
  NOTIFY_POLL_MS: Type.Integer({ minimum: 50, maximum: 60_000, default: 250 }),
  /** Webhook targets on private, loopback or link-local addresses are refused unless this is true. */
  WEBHOOK_ALLOW_PRIVATE_TARGETS: Type.Boolean({ default: false }),
  /** How long a webhook target may take to answer. */
  WEBHOOK_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 60_000, default: 10_000 }),
  /** Who keeps the cards and charges them: the built-in local processor, or Stripe. */
  CARD_PROVIDER: Type.Union([Type.Literal('local'), Type.Literal('stripe')], { default: 'local' }),
  /** Stripe's secret (or restricted) key: required with CARD_PROVIDER=stripe; never logged, never sent to the browser. */
  STRIPE_SECRET_KEY: Type.Optional(Type.String()),
  /** Stripe's publishable key, which the browser's Stripe Elements use: required with CARD_PROVIDER=stripe. */
  STRIPE_PUBLISHABLE_KEY: Type.Optional(Type.String({ pattern: '^pk_(test|live)_[A-Za-z0-9]+$' })),
  /**
   * The signing secret of Stripe's webhook endpoint (whsec_…), with which its refund and dispute events
   * are verified: required with CARD_PROVIDER=stripe in production; never logged.
   */
  STRIPE_WEBHOOK_SECRET: Type.Optional(Type.String({ pattern: '^whsec_[A-Za-z0-9+/=_-]+$' })),
  /** Another address for Stripe's API (a local stand-in in tests), instead of https://api.stripe.com. */
  STRIPE_API_BASE: Type.Optional(Type.String({ pattern: '^https?://[^/\\s]+/?$' })),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info' },
  ),
  /** Third-party sign-in (OpenID Connect), first provider: the name on its button, issuer URL, client id and secret (never logged, never sent to the browser). */
  OIDC_FIRST_NAME: Type.String({ minLength: 1, maxLength: 40, default: THIRD_PARTY_DEFAULT_NAMES.first }),
  OIDC_FIRST_ISSUER: Type.Optional(Type.String({ pattern: '^https?://[^\\s]+$' })),
  OIDC_FIRST_CLIENT_ID: Type.Optional(Type.String({ minLength: 1 })),
  OIDC_FIRST_CLIENT_SECRET: Type.Optional(Type.String({ minLength: 1 })),
  /** Third-party sign-in (OpenID Connect), second provider: the name on its button, issuer URL, client id and secret (never logged, never sent to the browser). */
  OIDC_SECOND_NAME: Type.String({ minLength: 1, maxLength: 40, default: THIRD_PARTY_DEFAULT_NAMES.second }),
  OIDC_SECOND_ISSUER: Type.Optional(Type.String({ pattern: '^https?://[^\\s]+$' })),
  OIDC_SECOND_CLIENT_ID: Type.Optional(Type.String({ minLength: 1 })),
  OIDC_SECOND_CLIENT_SECRET: Type.Optional(Type.String({ minLength: 1 })),
  /** The analytics tag: an https script the web app starts, only when APP_ENV is prod (spec B §9). */
  ANALYTICS_SCRIPT_URL: Type.Optional(Type.String({ pattern: '^https://[^\\s]+$' })),
  WEB_DIST: Type.String({ default: path.resolve(import.meta.dirname, '../../web/dist') }),
});

export type Config = Omit<Static<typeof Env>, 'HOST' | 'PUBLIC_URL'> & {
  HOST: string;
  PUBLIC_URL: string;
  dataDir: string;
  /** Per network: the http(s) upstreams with their traits (calls), and the ws(s) ones (subscriptions). */
  rpcUpstreams: Record<string, UpstreamEntry[]>;
  rpcSocketUpstreams: Record<string, string[]>;
  rpcCacheDepths: Record<string, number>;
  /** RPC_MAX_LAG_BLOCKS_BY_NETWORK, per network path. */
  rpcMaxLagBlocks: Record<string, number>;
  rpcBlockedMethods: string[];
  rpcAllowedMethods: string[];
  /** Confirmations a forward waits for, per token forwarding network. */
  forwardingConfirmations: Partial<Record<Network, number>>;
};

export { ConfigError };

/** Settings whose values are secrets or may hold one (a password in a URL). */
const SECRET_SETTINGS = new Set([
  'DATABASE_URL',
  'SMTP_URL',
  'REDIS_URL',
  'AUTH_SIGNING_KEY',
  'AUTH_HMAC_SECRET',
  'DATA_ENCRYPTION_KEY',
  'WALLET_MASTER_SEED',
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET',
  'OIDC_FIRST_CLIENT_SECRET',
  'OIDC_SECOND_CLIENT_SECRET',
  'RPC_UPSTREAMS',
  'METRICS_TOKEN',
]);

/** Reads and validates the environment once; a bad value throws one clear line. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(Env.properties)) {
    const value = env[key];
    if (value !== undefined && value !== '') raw[key] = value;
  }
  const converted = Value.Convert(Env, Value.Default(Env, raw));
  const firstError = Value.Errors(Env, converted).First();
  if (firstError) {
    const name = firstError.path.replace(/^\//, '');
    // A secret, or an address that may carry a password, is never repeated: start errors reach logs.
    const got = SECRET_SETTINGS.has(name) ? 'a value of another form' : `"${env[name] ?? ''}"`;
    throw new ConfigError(`Invalid configuration: ${name} ${firstError.message.toLowerCase()} (got ${got})`);
  }
  const config = converted as Static<typeof Env>;
  // The prod environment without production mode would serve the dev outbox and run on test cards.
  if (config.APP_ENV === 'prod' && config.NODE_ENV !== 'production') {
    throw new ConfigError('Invalid configuration: APP_ENV=prod requires NODE_ENV=production');
  }
  if (config.NODE_ENV === 'production') {
    for (const key of [
      'AUTH_SIGNING_KEY',
      'AUTH_HMAC_SECRET',
      'DATA_ENCRYPTION_KEY',
      'DATABASE_URL',
      'WALLET_MASTER_SEED',
      // Without it mail, verification codes included, would go to the database and the log.
      'SMTP_URL',
    ] as const) {
      if (!config[key]) throw new ConfigError(`Invalid configuration: ${key} is required when NODE_ENV=production`);
    }
  }
  checkCardProvider(config);
  checkThirdParty(config);
  return {
    ...config,
    // Outside production the dev outbox holds everyone's codes: only this machine may reach it.
    HOST: config.HOST ?? (config.NODE_ENV === 'production' ? '0.0.0.0' : '127.0.0.1'),
    // Links and RPC URLs shown to users follow the port the server was told to listen on.
    PUBLIC_URL: config.PUBLIC_URL ?? `http://localhost:${config.PORT}`,
    dataDir: path.resolve(config.DATA_DIR),
    ...readRpcSettings(config),
    forwardingConfirmations: parseConfirmations(config.FORWARDING_CONFIRMATIONS),
  };
}

export const isProduction = (config: Config) => config.NODE_ENV === 'production';
/** The analytics tag's address when the web app should start it: only in the prod environment. */
export const analyticsScriptUrl = (config: Pick<Config, 'APP_ENV' | 'ANALYTICS_SCRIPT_URL'>) =>
  config.APP_ENV === 'prod' ? config.ANALYTICS_SCRIPT_URL : undefined;
export const cookieSecure = (config: Config) => config.COOKIE_SECURE ?? config.PUBLIC_URL.startsWith('https://');

/**
 * Production charges real cards: the local processor, which accepts any valid test number, never
 * runs there, and the prod environment never runs on Stripe's test mode (staging may).
 * CARD_PROVIDER=stripe needs both keys, of the same mode (test or live). The secret key is checked
 * here rather than by a schema pattern, so that a wrong one is never echoed in the error.
 */
function checkCardProvider(config: Static<typeof Env>): void {
  if (config.CARD_PROVIDER !== 'stripe') {
    if (config.NODE_ENV === 'production') {
      throw new ConfigError(
        'Invalid configuration: CARD_PROVIDER must be stripe when NODE_ENV=production (the local processor takes test cards)',
      );
    }
    return;
  }
  const secret = config.STRIPE_SECRET_KEY;
  const publishable = config.STRIPE_PUBLISHABLE_KEY;
  if (!secret || !publishable) {
    throw new ConfigError(
      'Invalid configuration: STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY are required when CARD_PROVIDER=stripe',
    );
  }
  const mode = /^(?:sk|rk)_(test|live)_[A-Za-z0-9]+$/.exec(secret)?.[1];
  if (!mode) {
    throw new ConfigError(
      'Invalid configuration: STRIPE_SECRET_KEY must be a Stripe secret key (sk_test_… or sk_live_…)',
    );
  }
  if (!publishable.startsWith(`pk_${mode}_`)) {
    throw new ConfigError(`Invalid configuration: STRIPE_PUBLISHABLE_KEY must be a ${mode} key like STRIPE_SECRET_KEY`);
  }
  if (config.APP_ENV === 'prod' && mode === 'test') {
    throw new ConfigError(
      'Invalid configuration: STRIPE_SECRET_KEY must be a live key (sk_live_… or rk_live_…) when APP_ENV=prod',
    );
  }
  // Without it refunds and disputes made at Stripe would never reach the ledger.
  if (config.NODE_ENV === 'production' && !config.STRIPE_WEBHOOK_SECRET) {
    throw new ConfigError(
      'Invalid configuration: STRIPE_WEBHOOK_SECRET is required when CARD_PROVIDER=stripe and NODE_ENV=production',
    );
  }
}

/**
 * A third-party provider slot is configured by its issuer, client id and client secret together;
 * production talks to issuers over https only. The secret is never echoed in an error.
 */
function checkThirdParty(config: Static<typeof Env>): void {
  for (const slot of ['FIRST', 'SECOND'] as const) {
    const parts = [
      config[`OIDC_${slot}_ISSUER`],
      config[`OIDC_${slot}_CLIENT_ID`],
      config[`OIDC_${slot}_CLIENT_SECRET`],
    ];
    const given = parts.filter(Boolean).length;
    if (given !== 0 && given !== parts.length) {
      throw new ConfigError(
        `Invalid configuration: OIDC_${slot}_ISSUER, OIDC_${slot}_CLIENT_ID and OIDC_${slot}_CLIENT_SECRET go together`,
      );
    }
    if (config.NODE_ENV === 'production' && parts[0]?.startsWith('http://')) {
      throw new ConfigError(`Invalid configuration: OIDC_${slot}_ISSUER must be https when NODE_ENV=production`);
    }
  }
}

/** FORWARDING_CONFIRMATIONS: every key a token forwarding network, every value 1 to 1000. */
function parseConfirmations(text: string | undefined): Partial<Record<Network, number>> {
  if (!text) return {};
  const fail = (why: string) => new ConfigError(`Invalid configuration: FORWARDING_CONFIRMATIONS ${why}`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw fail('must be JSON, e.g. {"ETHEREUM_MAINNET": 12}');
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw fail('must be a JSON object');
  const confirmations: Partial<Record<Network, number>> = {};
  for (const [network, count] of Object.entries(value)) {
    if (!isNetwork(network)) throw fail(`names an unknown network "${network}"`);
    if (!Number.isInteger(count) || (count as number) < 1 || (count as number) > 1000) {
      throw fail(`"${network}" must be a whole number from 1 to 1000`);
    }
    confirmations[network] = count as number;
  }
  return confirmations;
}
