import { rm } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { testDatabases } from '../testing/databases.ts';
import { productionEnv } from '../testing/production-env.ts';
import { reportFigures } from '../testing/report.ts';
import { serverFor } from '../testing/server.ts';
import { writeWebDist } from '../testing/web-dist.ts';
import { contentSecurityPolicy, securityHeaders } from './security-headers.ts';

/** The policy as a map of directive to its sources. */
const directives = (policy: string) =>
  new Map(
    policy.split(';').map((part) => {
      const [name = '', ...values] = part.trim().split(/\s+/);
      return [name, values] as const;
    }),
  );

const stripeConfig = {
  CARD_PROVIDER: 'stripe' as const,
  STRIPE_SECRET_KEY: 'sk_test_abc',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_abc',
};

describe('the content security policy', () => {
  it('allows scripts from this origin only: no inline script, no eval, no frames, no framing', () => {
    const policy = directives(contentSecurityPolicy(loadConfig({})));
    expect(policy.get('default-src')).toEqual(["'self'"]);
    expect(policy.get('script-src')).toEqual(["'self'"]);
    expect(policy.get('connect-src')).toEqual(["'self'"]);
    expect(policy.get('frame-src')).toEqual(["'none'"]);
    expect(policy.get('object-src')).toEqual(["'none'"]);
    expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
    expect(policy.get('base-uri')).toEqual(["'self'"]);
    expect(policy.get('form-action')).toEqual(["'self'"]);
    expect(policy.get('img-src')).toEqual(["'self'", 'data:']);
  });

  it('lets Stripe.js, its API and its frames in only when Stripe keeps the cards', () => {
    const policy = directives(contentSecurityPolicy(loadConfig(stripeConfig)));
    expect(policy.get('script-src')).toEqual(["'self'", 'https://js.stripe.com', 'https://*.js.stripe.com']);
    expect(policy.get('connect-src')).toEqual(["'self'", 'https://api.stripe.com']);
    expect(policy.get('frame-src')).toContain('https://hooks.stripe.com');
    expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
    for (const sources of policy.values()) {
      expect(sources).not.toContain("'unsafe-eval'");
    }
    expect(policy.get('script-src')).not.toContain("'unsafe-inline'");
  });

  it("lets the analytics tag's origin in only in the prod environment", () => {
    const tag = { ANALYTICS_SCRIPT_URL: 'https://analytics.example.com/tag.js?id=1' };
    const prod = directives(contentSecurityPolicy(loadConfig(productionEnv(tag))));
    // Production keeps its cards at Stripe, whose origins the policy names too.
    expect(prod.get('script-src')).toContain('https://analytics.example.com');
    expect(prod.get('connect-src')).toContain('https://analytics.example.com');
    for (const appEnv of ['dev', 'staging']) {
      const policy = directives(contentSecurityPolicy(loadConfig({ ...tag, APP_ENV: appEnv })));
      expect(policy.get('script-src')).toEqual(["'self'"]);
      expect(policy.get('connect-src')).toEqual(["'self'"]);
    }
  });

  it('asks for https from then on only when the console is served over https', () => {
    expect(securityHeaders(loadConfig({}))['strict-transport-security']).toBeUndefined();
    expect(securityHeaders(loadConfig({ PUBLIC_URL: 'https://console.example.com' }))).toMatchObject({
      'strict-transport-security': 'max-age=31536000; includeSubDomains',
    });
  });
});

describe('security headers on every answer', () => {
  const dist = writeWebDist('ebs-web-headers-');
  const server = serverFor(testDatabases[0]!, { WEB_DIST: dist });
  afterAll(() => rm(dist, { recursive: true, force: true }));

  const expected = () => securityHeaders(server().deps.config);
  const oversized = JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(1024 * 1024 + 1) });
  const requests: Array<[string, string, RequestInit?]> = [
    ['the app page', '/'],
    ['a client route', '/account/3f2b/overview'],
    ['a hashed asset', '/assets/app-abc123.js'],
    ['a precompressed asset', '/assets/app-abc123.js', { headers: { 'accept-encoding': 'br' } }],
    ['a missing asset', '/assets/missing.js'],
    ['a public API call', '/api/v1.0/config'],
    ['an API call without a token', '/api/v1.0/user'],
    ['an unknown API route', '/api/v1.0/nope'],
    ['the API docs', '/api/docs/'],
    ['the API docs script', '/api/docs/static/swagger-initializer.js'],
    [
      'a refused sign-in',
      '/auth/sign-in',
      { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } },
    ],
    [
      'a body too large',
      '/auth/sign-in',
      { method: 'POST', body: oversized, headers: { 'content-type': 'application/json' } },
    ],
  ];
  let checked = 0;

  it.each(requests)('come with %s', async (_what, url, init) => {
    const response = await fetch(server().url + url, init);
    await response.arrayBuffer();
    const headers = Object.fromEntries(Object.keys(expected()).map((name) => [name, response.headers.get(name)]));
    expect(headers).toEqual(expected());
    expect(response.headers.get('content-security-policy')).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline/);
    checked += Object.keys(headers).length;
  });

  it('leave the JSON-RPC gateway alone: its callers are programs, and it is the hot path', async () => {
    const response = await fetch(`${server().url}/api/v1.0/rpc/ethereum/mainnet`, { method: 'POST', body: '{}' });
    await response.arrayBuffer();
    expect(response.headers.get('content-type')).toMatch(/json/);
    expect(response.headers.get('content-security-policy')).toBeNull();
  });

  afterAll(() => {
    reportFigures('hardening: security headers', { answers: requests.length, 'headers checked': checked });
  });
});
