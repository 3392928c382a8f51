import { describe, expect, it } from 'vitest';
import { pglite, testDatabases } from '../../testing/databases.ts';
import { productionEnv } from '../../testing/production-env.ts';
import { reportFigures } from '../../testing/report.ts';
import { serverFor, startServer } from '../../testing/server.ts';

const ANALYTICS_SCRIPT_URL = 'https://analytics.example.com/tag.js?id=EBS-1';
const publicConfig = async (url: string) => (await (await fetch(`${url}/api/v1.0/config`)).json()).data;

describe('the analytics tag in the public configuration (spec B §9)', () => {
  const dev = serverFor(testDatabases[0]!, { ANALYTICS_SCRIPT_URL, APP_ENV: 'dev' });
  const staging = serverFor(testDatabases[0]!, { ANALYTICS_SCRIPT_URL, APP_ENV: 'staging' });
  const prod = serverFor(
    testDatabases[0]!,
    productionEnv({ ANALYTICS_SCRIPT_URL, PUBLIC_URL: 'https://console.example.com' }),
  );

  it('is offered to the web app only in the prod environment', async () => {
    expect(await publicConfig(prod().url)).toMatchObject({ appEnv: 'prod', analyticsScriptUrl: ANALYTICS_SCRIPT_URL });
    for (const server of [dev(), staging()]) {
      const config = await publicConfig(server.url);
      expect(config.appEnv).not.toBe('prod');
      expect(config).not.toHaveProperty('analyticsScriptUrl');
    }
  });

  it('names the API base from deployment configuration, PUBLIC_URL (spec A §7)', async () => {
    expect(await publicConfig(prod().url)).toMatchObject({ apiBase: 'https://console.example.com' });
  });

  it("lets the tag's origin serve scripts only where it is started", async () => {
    const policy = async (url: string) =>
      (await fetch(`${url}/api/v1.0/config`)).headers.get('content-security-policy');
    expect(await policy(prod().url)).toMatch(/script-src 'self'[^;]* https:\/\/analytics\.example\.com[ ;]/);
    expect(await policy(dev().url)).toContain("script-src 'self';");
  });
});

describe('the health check', () => {
  it('answers ok while the database answers, and 503 once it does not', async () => {
    const { db } = await pglite.open();
    const server = await startServer(db);
    try {
      const healthy = await fetch(`${server.url}/api/v1.0/health`);
      expect(healthy.status).toBe(200);
      expect((await healthy.json()).data).toEqual({ status: 'ok' });
      await db.destroy();
      const broken = await fetch(`${server.url}/api/v1.0/health`);
      expect(broken.status).toBe(503);
      expect(await broken.json()).toMatchObject({ message: 'The database cannot be reached.' });
    } finally {
      await server.app.close();
    }
  });
});

describe('the dev outbox, reached from another machine', () => {
  const server = serverFor(testDatabases[0]!, { TRUST_PROXY: '1' });
  const read = (url: string, remoteAddress: string, headers: Record<string, string> = {}) =>
    server().app.inject({ method: 'GET', url, remoteAddress, headers });

  it('answers no one but this machine, so a stranger cannot read a reset code and take the account over', async () => {
    await server().deps.mailer.send({ to: 'victim@example.com', subject: 'Reset code', text: 'Your code is 123456' });
    let refused = 0;
    for (const url of ['/dev/mailbox.json', '/dev/mailbox.json?to=victim@example.com', '/dev/mailbox']) {
      for (const [remoteAddress, headers] of [
        ['203.0.113.9', {}],
        ['2001:db8::9', {}],
        // A forwarded address is the client's to write: only the socket counts.
        ['203.0.113.9', { 'x-forwarded-for': '127.0.0.1' }],
        // A proxy or tunnel on this machine connects from loopback for every visitor.
        ['127.0.0.1', { 'x-forwarded-for': '203.0.113.9' }],
        ['127.0.0.1', { forwarded: 'for=203.0.113.9' }],
        // What other proxies send instead, and a plain nginx proxy_pass that sends none of them
        // but the public name it was reached by.
        ['127.0.0.1', { via: '1.1 nginx' }],
        ['127.0.0.1', { 'x-forwarded-proto': 'https' }],
        ['127.0.0.1', { 'x-forwarded-host': 'staging.example.com' }],
        ['127.0.0.1', { 'x-real-ip': '203.0.113.9' }],
        ['127.0.0.1', { 'true-client-ip': '203.0.113.9' }],
        ['127.0.0.1', { 'x-client-ip': '203.0.113.9' }],
        ['127.0.0.1', { 'x-original-forwarded-for': '203.0.113.9' }],
        ['127.0.0.1', { host: 'staging.example.com' }],
        ['127.0.0.1', { host: '203.0.113.9:3000' }],
        ['127.0.0.1', { host: 'localhost.example.com' }],
      ] as const) {
        const answer = await read(url, remoteAddress, headers);
        expect(answer.statusCode).toBe(404);
        expect(answer.body).not.toContain('123456');
        refused += 1;
      }
      for (const host of ['localhost:3000', '127.0.0.1:5173', '[::1]:3000', 'app.localhost']) {
        const local = await read(url, '127.0.0.1', { host });
        expect(local.statusCode).toBe(200);
        expect(local.body).toContain('123456');
      }
    }
    reportFigures('dev outbox loopback only', { outsideReads: refused, refused, loopbackReads: 12 });
  });
});
