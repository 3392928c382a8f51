import { Messages } from '@ebs/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../testing/client.ts';
import { testDatabases } from '../testing/databases.ts';
import { startServer, type TestServer } from '../testing/server.ts';

/**
 * Routes under /api that are not account-scoped, each with the reason. A new route is
 * account-scoped unless it is added here, so none can escape the membership check unnoticed.
 */
const PUBLIC = new Set([
  'GET /api/v1.0/config',
  'GET /api/v1.0/user/checkIsValidCode',
  // The RPC gateway: an API key names the account (rpc.gateway.test.ts).
  'POST /api/v1.0/rpc/:chain/:net',
  'POST /api/v1.0/rpc/*',
  'OPTIONS /api/v1.0/rpc/*',
]);
const USER_SCOPED = new Set([
  'GET /api/v1.0/account', // the caller's own accounts
  'POST /api/v1.0/account', // a new account, owned by the caller
  'GET /api/v1.0/user', // the caller's own profile
  'GET /api/v1.0/user/ambassador', // the caller's own ambassador card
  'GET /api/v1.0/setting', // product-wide settings
  'GET /api/v1.0/transaction/type', // the product's list of transaction types
]);

describe.each(testDatabases)('account membership on $name', (database) => {
  let server: TestServer;
  let close: () => Promise<void>;
  let stranger: Client;
  let foreignAccount: string;

  beforeAll(async () => {
    const opened = await database.open();
    close = opened.close;
    server = await startServer(opened.db);
    const owner = new Client(server.url);
    await owner.signUp();
    foreignAccount = ((await owner.post('/api/v1.0/account', { accountName: 'not yours' })).body.data as { id: string })
      .id;
    stranger = new Client(server.url);
    await stranger.signUp();
    await stranger.post('/api/v1.0/account', { accountName: 'mine' });
  });
  afterAll(async () => {
    await server?.close();
    await close?.();
  });

  const apiRoutes = () =>
    server.routes.filter((r) => r.url.startsWith('/api/') && !r.url.startsWith('/api/docs') && r.method !== 'HEAD');
  const fill = (url: string) => url.replace(/:[A-Za-z]+/g, '00000000-0000-4000-8000-000000000001');

  it('classifies every /api route as public, user-scoped or account-scoped', () => {
    const routes = apiRoutes();
    expect(routes.length).toBeGreaterThan(5);
    for (const r of routes) {
      const key = `${r.method} ${r.url}`;
      if (PUBLIC.has(key)) expect(r.public, key).toBe(true);
      else if (USER_SCOPED.has(key)) expect(r.accountScoped, key).toBe(false);
      else expect(r.accountScoped, `${key} must be account-scoped or listed`).toBe(true);
    }
  });

  it('refuses a member of another account on every account-scoped route', async () => {
    const scoped = apiRoutes().filter((r) => r.accountScoped);
    expect(scoped.length).toBeGreaterThan(0);
    for (const r of scoped) {
      const answer = await stranger.call(r.method, fill(r.url), {
        headers: { 'ebs-account-id': foreignAccount },
        body: r.method === 'GET' || r.method === 'DELETE' ? undefined : {},
      });
      expect(answer.status, `${r.method} ${r.url}`).toBe(403);
      expect(answer.body.message).toBe(Messages.notAMember);
    }
  });

  it('refuses every non-public route without a session', async () => {
    for (const r of apiRoutes().filter((x) => !x.public)) {
      const answer = await stranger.call(r.method, fill(r.url), {
        token: null,
        headers: { 'ebs-account-id': foreignAccount },
        body: r.method === 'GET' || r.method === 'DELETE' ? undefined : {},
      });
      expect(answer.status, `${r.method} ${r.url}`).toBe(401);
      expect(answer.body).toMatchObject({ message: 'Token expired', error: 'Unauthorized' });
    }
  });

  it('refuses an account-scoped call without the header', async () => {
    const answer = await stranger.get('/api/v1.0/account/details');
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe(Messages.accountHeaderRequired);
  });
});
