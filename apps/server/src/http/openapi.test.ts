import { describe, expect, it } from 'vitest';
import { testDatabases } from '../testing/databases.ts';
import { serverFor } from '../testing/server.ts';

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

  it('serves the documentation viewer at /api/docs', async () => {
    const response = await fetch(`${server().url}/api/docs/`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
  });
});
