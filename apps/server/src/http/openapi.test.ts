import { endpointList, endpoints } from '@ebs/contract';
import type { RouteOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { testDatabases } from '../testing/databases.ts';
import { serverFor } from '../testing/server.ts';
import { refuseUntabledRoute } from './route.ts';

describe('OpenAPI', () => {
  const server = serverFor(testDatabases[0]!);

  it('documents every API and identity route from the contract, without signing in', async () => {
    const response = await fetch(`${server().url}/api/docs/json`);
    expect(response.status).toBe(200);
    const doc = (await response.json()) as { paths: Record<string, Record<string, unknown>> };
    const documented = Object.entries(doc.paths).flatMap(([p, methods]) =>
      Object.keys(methods).map((m) => `${m.toUpperCase()} ${p}`),
    );
    const routes = server()
      .routes.filter((r) => (r.url.startsWith('/api/v1.0') || r.url.startsWith('/auth/')) && r.method !== 'HEAD')
      // The gateway's catch-all only answers unknown networks; its real route is documented.
      .filter((r) => r.url !== '/api/v1.0/rpc/*')
      .map((r) => `${r.method} ${r.url.replace(/:(\w+)/g, '{$1}')}`);
    expect(routes.length).toBeGreaterThan(15);
    for (const route of routes) expect(documented).toContain(route);
    const signUp = doc.paths['/auth/sign-up']?.post as {
      requestBody: { content: Record<string, { schema: { required: string[] } }> };
    };
    expect(signUp.requestBody.content['application/json']?.schema.required).toEqual([
      'email',
      'password',
      'givenName',
      'familyName',
    ]);
  });

  it("registers every endpoint of the contract's table and documents each one not hidden", async () => {
    const doc = (await (await fetch(`${server().url}/api/docs/json`)).json()) as {
      paths: Record<string, Record<string, { security?: unknown[] }>>;
    };
    const registered = new Set(server().routes.map((r) => `${r.method} ${r.url}`));
    // The Stripe webhook exists only with CARD_PROVIDER=stripe (stripe-webhook.security.test.ts).
    const here = endpointList().filter(({ endpoint }) => endpoint !== endpoints.cards.stripeWebhook);
    for (const { name, endpoint } of here) {
      expect(registered.has(`${endpoint.method} ${endpoint.path}`), name).toBe(true);
      const documented = doc.paths[endpoint.path.replace(/:(\w+)/g, '{$1}')]?.[endpoint.method.toLowerCase()];
      expect(documented !== undefined, name).toBe(!endpoint.hidden);
      if (documented && endpoint.access === 'public') expect(documented.security, name).toEqual([]);
    }
  });

  it('refuses to build with a route of its own paths registered outside the table', () => {
    const stray = { method: 'GET', url: '/api/v1.0/stray', config: {}, handler: async () => ({}) } as RouteOptions;
    expect(() => refuseUntabledRoute(stray)).toThrow(
      "GET /api/v1.0/stray is not registered from the contract's endpoint table",
    );
    const copied = { ...stray, config: { endpoint: { ...endpoints.keys.list } } } as RouteOptions;
    expect(() => refuseUntabledRoute(copied)).toThrow();
    expect(() => refuseUntabledRoute({ ...stray, url: '/assets/app.js' })).not.toThrow();
  });

  it('serves the documentation viewer at /api/docs', async () => {
    const response = await fetch(`${server().url}/api/docs/`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
  });
});
