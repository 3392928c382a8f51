import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { productionEnv } from './testing/production-env.ts';

describe('configuration', () => {
  it('uses the embedded defaults with an empty environment', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ PORT: 8080, APP_ENV: 'dev', ID_TOKEN_TTL_SECONDS: 900 });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.dataDir.endsWith('/data')).toBe(true);
  });

  it('refuses a bad value with one clear line', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(
      /^Invalid configuration: PORT expected integer \(got "eighty"\)$/,
    );
    expect(() => loadConfig({ APP_ENV: 'qa' })).toThrow(/^Invalid configuration: APP_ENV/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/^Invalid configuration: DATABASE_URL/);
    expect(() => loadConfig({ ANALYTICS_SCRIPT_URL: 'http://analytics.example.com/tag.js' })).toThrow(
      /^Invalid configuration: ANALYTICS_SCRIPT_URL/,
    );
  });

  it('reads the gateway’s method lists and refuses a malformed one with one clear line', () => {
    const config = loadConfig({ RPC_BLOCKED_METHODS: 'debug_*, eth_getProof', RPC_ALLOWED_METHODS: 'evm_snapshot' });
    expect([config.rpcBlockedMethods, config.rpcAllowedMethods]).toEqual([
      ['debug_*', 'eth_getProof'],
      ['evm_snapshot'],
    ]);
    expect(loadConfig({}).rpcBlockedMethods).toEqual([]);
    expect(() => loadConfig({ RPC_ALLOWED_METHODS: 'eth_call,,' })).toThrow(
      /^Invalid configuration: RPC_ALLOWED_METHODS/,
    );
    expect(() => loadConfig({ RPC_BLOCKED_METHODS: 'anvil_*set' })).toThrow(
      /^Invalid configuration: RPC_BLOCKED_METHODS/,
    );
  });

  it('reads the upstreams and cache depths per network and refuses a malformed one with one clear line', () => {
    const config = loadConfig({
      RPC_UPSTREAMS:
        '{"ethereum/mainnet": "https://a.example", "bsc/mainnet": ["wss://b.example/ws", {"url": "https://b.example", "archive": true, "weight": 2, "maxInFlight": 200}, "http://c.example", "ws://c.example"]}',
      RPC_CACHE_DEPTHS: '{"polygon/mainnet": 512, "aurora/mainnet": 0}',
      RPC_MAX_LAG_BLOCKS_BY_NETWORK: '{"bsc/mainnet": 10}',
    });
    // The http(s) nodes serve calls (a URL alone is a full node of weight 1), the ws(s) ones
    // subscriptions, each list in its order.
    const node = (url: string) => ({ url, archive: false, weight: 1, maxInFlight: 0 });
    expect([config.rpcUpstreams, config.rpcSocketUpstreams, config.rpcCacheDepths]).toEqual([
      {
        'ethereum/mainnet': [node('https://a.example')],
        'bsc/mainnet': [
          { url: 'https://b.example', archive: true, weight: 2, maxInFlight: 200 },
          node('http://c.example'),
        ],
      },
      { 'bsc/mainnet': ['wss://b.example/ws', 'ws://c.example'] },
      { 'polygon/mainnet': 512, 'aurora/mainnet': 0 },
    ]);
    expect([
      config.rpcMaxLagBlocks,
      config.RPC_MAX_LAG_BLOCKS,
      config.RPC_HEDGE_MS,
      config.RPC_BROADCAST_SENDS,
    ]).toEqual([{ 'bsc/mainnet': 10 }, 3, undefined, false]);
    const cases: Array<[Record<string, string>, string]> = [
      [
        { RPC_CACHE_DEPTHS: '{"polygon/mainnet": 1.5}' },
        'RPC_CACHE_DEPTHS "polygon/mainnet" must be a whole number of blocks from 0 to 100000',
      ],
      [{ RPC_CACHE_DEPTHS: '{"polygon/mainnet": -1}' }, 'RPC_CACHE_DEPTHS "polygon/mainnet" must be a whole number'],
      [{ RPC_CACHE_DEPTHS: '{"ethereum/goerli": 5}' }, 'RPC_CACHE_DEPTHS names an unknown network "ethereum/goerli"'],
      [{ RPC_CACHE_DEPTHS: '[5]' }, 'RPC_CACHE_DEPTHS must be a JSON object'],
      [{ RPC_CACHE_DEPTHS: '{5' }, 'RPC_CACHE_DEPTHS must be JSON, e.g. {"polygon/mainnet": 256}'],
      [
        { RPC_UPSTREAMS: '{"ethereum/mainnet": ["ftp://a"]}' },
        'RPC_UPSTREAMS "ethereum/mainnet" must be a list of http(s) URLs',
      ],
      [
        { RPC_UPSTREAMS: '{"ethereum/mainnet": []}' },
        'RPC_UPSTREAMS "ethereum/mainnet" must be a list of http(s) URLs',
      ],
      [
        { RPC_UPSTREAMS: '{"ethereum/mainnet": [{"url": "https://a", "weight": 0}]}' },
        'RPC_UPSTREAMS "ethereum/mainnet" must be a list of http(s) URLs (or {"url", "archive", "weight", "maxInFlight"} objects)',
      ],
      [
        { RPC_UPSTREAMS: '{"ethereum/mainnet": [{"url": "https://a", "archive": "yes"}]}' },
        'RPC_UPSTREAMS "ethereum/mainnet" must be a list of http(s) URLs',
      ],
      [
        { RPC_UPSTREAMS: '{"ethereum/mainnet": [{"url": "https://a", "apiKey": "x"}]}' },
        'RPC_UPSTREAMS "ethereum/mainnet" must be a list of http(s) URLs',
      ],
      [
        { RPC_MAX_LAG_BLOCKS_BY_NETWORK: '{"bsc/mainnet": -2}' },
        'RPC_MAX_LAG_BLOCKS_BY_NETWORK "bsc/mainnet" must be a whole number of blocks from 0 to 100000',
      ],
      [
        // Calls need an http(s) node: a network of WebSocket nodes alone is refused.
        { RPC_UPSTREAMS: '{"ethereum/mainnet": ["wss://a.example"]}' },
        'RPC_UPSTREAMS "ethereum/mainnet" must be a list of http(s) URLs (or {"url", "archive", "weight", "maxInFlight"} objects), with ws(s) URLs for subscriptions',
      ],
    ];
    for (const [env, message] of cases) expect(() => loadConfig(env)).toThrow(`Invalid configuration: ${message}`);
  });

  it('never repeats a secret, or an address that may hold a password, in its error', () => {
    for (const [name, value] of [
      ['DATA_ENCRYPTION_KEY', 'short-but-secret-key'],
      ['AUTH_HMAC_SECRET', 'secret-hmac'],
      ['WALLET_MASTER_SEED', 'not-hex-secret-seed'],
      ['DATABASE_URL', 'mysql://root:hunter2@db/ebs'],
      ['SMTP_URL', 'ftp://mail:hunter2@smtp'],
      ['STRIPE_WEBHOOK_SECRET', 'not-a-whsec-hunter2'],
    ]) {
      expect(() => loadConfig({ [name as string]: value })).toThrow(
        new RegExp(`^Invalid configuration: ${name} .*\\(got a value of another form\\)$`),
      );
      expect(() => loadConfig({ [name as string]: value })).not.toThrow(value as string);
    }
  });

  it('requires the production secrets in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(
      'Invalid configuration: AUTH_SIGNING_KEY is required when NODE_ENV=production',
    );
  });

  it('refuses a production start on the local card processor, which takes any test card for free', () => {
    for (const provider of [undefined, 'local']) {
      const env = productionEnv();
      delete env.STRIPE_SECRET_KEY;
      delete env.STRIPE_PUBLISHABLE_KEY;
      if (provider) env.CARD_PROVIDER = provider;
      else delete env.CARD_PROVIDER;
      expect(() => loadConfig(env)).toThrow(
        /^Invalid configuration: CARD_PROVIDER must be stripe when NODE_ENV=production/,
      );
    }
    expect(loadConfig(productionEnv()).CARD_PROVIDER).toBe('stripe');
  });

  it('refuses test-mode Stripe keys in the prod environment, naming the key, and allows them in staging', () => {
    const test = { STRIPE_SECRET_KEY: 'sk_test_abc123', STRIPE_PUBLISHABLE_KEY: 'pk_test_abc123' };
    const restricted = { STRIPE_SECRET_KEY: 'rk_test_abc123', STRIPE_PUBLISHABLE_KEY: 'pk_test_abc123' };
    for (const keys of [test, restricted]) {
      expect(() => loadConfig(productionEnv(keys))).toThrow(
        /^Invalid configuration: STRIPE_SECRET_KEY must be a live key .* when APP_ENV=prod$/,
      );
      expect(() => loadConfig(productionEnv(keys))).not.toThrow(/abc123/);
    }
    expect(() => loadConfig(productionEnv({ STRIPE_PUBLISHABLE_KEY: 'pk_test_abc123' }))).toThrow(
      /^Invalid configuration: STRIPE_PUBLISHABLE_KEY must be a live key/,
    );
    expect(loadConfig(productionEnv({ ...test, APP_ENV: 'staging' })).STRIPE_SECRET_KEY).toBe('sk_test_abc123');
  });

  it('refuses the prod environment outside production mode, where the dev outbox would answer', () => {
    for (const NODE_ENV of [undefined, 'development', 'test']) {
      expect(() => loadConfig({ APP_ENV: 'prod', ...(NODE_ENV ? { NODE_ENV } : {}) })).toThrow(
        /^Invalid configuration: APP_ENV=prod requires NODE_ENV=production$/,
      );
    }
  });

  it('points PUBLIC_URL at the port the server listens on when it is not set', () => {
    expect(loadConfig({}).PUBLIC_URL).toBe('http://localhost:8080');
    expect(loadConfig({ PORT: '18080' }).PUBLIC_URL).toBe('http://localhost:18080');
    expect(loadConfig({ PORT: '18080', PUBLIC_URL: 'https://console.example' }).PUBLIC_URL).toBe(
      'https://console.example',
    );
  });

  it('listens on this machine only outside production unless HOST says otherwise', () => {
    expect(loadConfig({}).HOST).toBe('127.0.0.1');
    expect(loadConfig({ HOST: '0.0.0.0' }).HOST).toBe('0.0.0.0');
    expect(loadConfig(productionEnv()).HOST).toBe('0.0.0.0');
    expect(loadConfig(productionEnv({ HOST: '10.0.0.5' })).HOST).toBe('10.0.0.5');
  });

  it('requires the Stripe webhook secret with Stripe in production, so refunds and disputes reach the ledger', () => {
    const { STRIPE_WEBHOOK_SECRET: _secret, ...production } = productionEnv();
    expect(() => loadConfig(production)).toThrow(
      'Invalid configuration: STRIPE_WEBHOOK_SECRET is required when CARD_PROVIDER=stripe and NODE_ENV=production',
    );
    expect(loadConfig({ ...production, STRIPE_WEBHOOK_SECRET: 'whsec_abc123' }).STRIPE_WEBHOOK_SECRET).toBe(
      'whsec_abc123',
    );
  });
});
