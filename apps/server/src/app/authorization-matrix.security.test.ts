import { Messages } from '@ebs/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { isGuarded } from '../http/guards.ts';
import { setFeature } from '../modules/accounts/accounts.test-kit.ts';
import {
  allRoutes,
  expiredToken,
  fabricated,
  forgedToken,
  keyOf,
  leakedNames,
  OUTSIDE,
  outsideKind,
  type Probe,
  PUBLIC,
  probesOf,
  signedInRoutes,
  USER_SCOPED,
  withoutBody,
} from '../testing/authorization-matrix.ts';
import type { Answer, Client } from '../testing/client.ts';
import { testDatabases } from '../testing/databases.ts';
import {
  accountSnapshot,
  type ForeignAccount,
  seedForeignAccount,
  type UserWithAccount,
  userWithAccount,
} from '../testing/foreign-account.ts';
import { productionEnv } from '../testing/production-env.ts';
import { reportFigures } from '../testing/report.ts';
import { serverFor } from '../testing/server.ts';
import { buildApp } from './app.ts';

const SIGNED_OUT = { message: Messages.tokenExpired, error: 'Unauthorized' };
const EXPIRED = { message: Messages.cognitoTokenExpired, error: 'Unauthorized' };

/** An answer as text, with any PDF the answer carries as bytes spelled out, for looking for values in it. */
function textOf(answer: Answer): string {
  const pdf = (answer.body?.data as { pdf?: { data?: number[] } } | undefined)?.pdf?.data;
  return JSON.stringify(answer.body ?? '') + (pdf ? Buffer.from(pdf).toString('latin1') : '');
}

describe.each(testDatabases)('authorization matrix on $name', (database) => {
  // Sepolia's node is a closed port: a call that reaches the chain fails at once instead of starting one.
  const server = serverFor(database, { RPC_UPSTREAMS: JSON.stringify({ 'ethereum/sepolia': ['http://127.0.0.1:9'] }) });
  let foreign: ForeignAccount;
  let stranger: UserWithAccount;
  let signedOut: UserWithAccount & { staleToken: string };
  const figures = { cases: 0, refused: 0, probes: 0, leaks: 0 };

  beforeAll(async () => {
    foreign = await seedForeignAccount(server());
    stranger = await userWithAccount(server().url);
    await setFeature(server().db, stranger.accountId, 'TOKEN_FORWARDING', true);
    const leaving = await userWithAccount(server().url);
    const staleToken = leaving.client.idToken;
    expect((await leaving.client.post('/auth/sign-out')).status).toBe(200);
    signedOut = { ...leaving, staleToken };
  });
  afterAll(() => {
    reportFigures(`authorization matrix (${database.name})`, {
      routes: allRoutes(server()).length,
      signedInRoutes: signedInRoutes(server()).length,
      ownerOnlyRoutes: allRoutes(server()).filter((r) => r.ownerOnly).length,
      ...figures,
    });
  });

  /** Sends a request of the matrix and counts it (refused: any 4xx). */
  async function send(client: Client, probe: Omit<Probe, 'subjects'>, token?: string | null, headers = {}) {
    const answer = await client.call(probe.method, probe.path, { token, headers, body: probe.body });
    figures.cases++;
    if (answer.status >= 400 && answer.status < 500) figures.refused++;
    return answer;
  }
  const emptyBody = (method: string) => (withoutBody(method) ? undefined : {});

  it('classifies every route as public, signed-in, account-scoped or guarded otherwise', () => {
    const routes = allRoutes(server());
    expect(routes.length).toBeGreaterThan(50);
    expect(routes.filter((r) => r.public).map(keyOf)).toEqual(expect.arrayContaining([...PUBLIC]));
    for (const r of routes) {
      const key = keyOf(r);
      const outside = outsideKind(r);
      if (outside) expect(OUTSIDE[outside], key).toBeTruthy();
      else if (PUBLIC.has(key)) expect(r.public, `${key} must be marked public`).toBe(true);
      else if (USER_SCOPED.has(key))
        expect({ key, public: r.public, scoped: r.accountScoped }).toEqual({ key, public: false, scoped: false });
      else expect({ key, public: r.public, scoped: r.accountScoped }).toEqual({ key, public: false, scoped: true });
    }
    // docs/roles.md: renaming the account, adding or removing people, the welcome credit, revealing
    // and rotating the signing secret and changing the alerts are the owner's.
    expect(Object.fromEntries(routes.filter((r) => r.ownerOnly).map((r) => [keyOf(r), r.ownerOnly]))).toEqual({
      'POST /api/v1.0/account/redeemBonus': Messages.ownerOnlyWelcomeCredit,
      'POST /api/v1.0/account/updateAccountName': Messages.ownerOnlyRename,
      'POST /api/v1.0/account/user': Messages.ownerOnlyUsers,
      'DELETE /api/v1.0/account/:userId': Messages.ownerOnlyUsers,
      'POST /api/v1.0/account/signing-secret/rotate': Messages.ownerOnlySigningSecret,
      'GET /api/v1.0/account/signing-secret': Messages.ownerOnlyRevealSigningSecret,
      'POST /api/v1.0/account/alerts': Messages.ownerOnlyAlerts,
    });
  });

  it('refuses every signed-in route without a token, with an expired, a forged or a signed-out one', async () => {
    const caller = stranger.client;
    const expired = await expiredToken(server(), caller.idToken);
    const forged = await forgedToken(server(), caller.idToken);
    const cases = [
      { name: 'no token', token: null, headers: foreign.owner.headers, expected: SIGNED_OUT },
      { name: 'expired', token: expired, headers: stranger.headers, expected: EXPIRED },
      { name: 'forged', token: forged, headers: stranger.headers, expected: SIGNED_OUT },
      { name: 'signed out', token: signedOut.staleToken, headers: signedOut.headers, expected: SIGNED_OUT },
    ];
    const routes = signedInRoutes(server());
    expect(routes.length).toBeGreaterThan(50);
    for (const r of routes) {
      for (const c of cases) {
        const probe = { method: r.method, path: fabricated(r.url), body: emptyBody(r.method) };
        const answer = await send(caller, probe, c.token, c.headers);
        expect({ route: keyOf(r), case: c.name, status: answer.status, ...answer.body }).toMatchObject({
          route: keyOf(r),
          case: c.name,
          status: 401,
          ...c.expected,
        });
      }
    }
    // The expired token's session is live: the same session with a fresh token is let in.
    expect((await caller.get('/api/v1.0/user')).status).toBe(200);
  });

  it('refuses a member of another account on every account-scoped route', async () => {
    const scoped = allRoutes(server()).filter((r) => r.accountScoped);
    expect(scoped.length).toBeGreaterThan(40);
    for (const r of scoped) {
      const probe = { method: r.method, path: fabricated(r.url), body: emptyBody(r.method) };
      const answer = await send(stranger.client, probe, undefined, foreign.owner.headers);
      expect({ route: keyOf(r), status: answer.status, message: answer.body.message }).toEqual({
        route: keyOf(r),
        status: 403,
        message: Messages.notAMember,
      });
    }
  });

  it('refuses a member who is not the owner on every owner-only route, and lets them in on the others', async () => {
    const scoped = allRoutes(server()).filter((r) => r.accountScoped);
    for (const r of scoped) {
      const probe = { method: r.method, path: fabricated(r.url), body: emptyBody(r.method) };
      const answer = await send(foreign.member, probe, undefined, foreign.owner.headers);
      const seen = { route: keyOf(r), status: answer.status, message: answer.body.message };
      if (r.ownerOnly) expect(seen).toEqual({ route: keyOf(r), status: 403, message: r.ownerOnly });
      else expect([401, 403].includes(answer.status), JSON.stringify(seen)).toBe(false);
    }
    // With well-formed requests too: the role is checked before anything sent is looked at.
    const member = foreign.member;
    const h = foreign.owner.headers;
    const refusals = [
      await member.post('/api/v1.0/account/updateAccountName', { accountName: 'Taken over' }, h),
      await member.post('/api/v1.0/account/user', { email: 'friend@example.com' }, h),
      await member.call('DELETE', `/api/v1.0/account/${foreign.ids.invitationId}`, { headers: h }),
      await member.call('DELETE', `/api/v1.0/account/${foreign.ids.ownerId}`, { headers: h }),
      await member.post(
        '/api/v1.0/account/redeemBonus',
        { accountId: foreign.ids.accountId, type: 'WELCOME_CREDIT' },
        h,
      ),
      await member.post('/api/v1.0/account/signing-secret/rotate', undefined, h),
      await member.get('/api/v1.0/account/signing-secret', h),
    ];
    expect(refusals.map((a) => [a.status, a.body.message])).toEqual([
      [403, Messages.ownerOnlyRename],
      [403, Messages.ownerOnlyUsers],
      [403, Messages.ownerOnlyUsers],
      [403, Messages.ownerOnlyUsers],
      [403, Messages.ownerOnlyWelcomeCredit],
      [403, Messages.ownerOnlySigningSecret],
      [403, Messages.ownerOnlyRevealSigningSecret],
    ]);
  });

  it('shows a stranger nothing of another account and changes none of it, whatever ids they send', async () => {
    const before = await accountSnapshot(server(), foreign.ids.accountId);
    const leaks: string[] = [];
    const wronglyServed: string[] = [];
    const signedIn = signedInRoutes(server()).filter((r) => r.url.startsWith('/api/'));
    // Reads first, before the stranger's own calls make anything of theirs; removals last, so that
    // each object of the other account is still there when the other calls name it.
    const rank = (method: string) => ['GET', 'POST', 'DELETE'].indexOf(method);
    const ordered = [...signedIn].sort((a, b) => rank(a.method) - rank(b.method));
    for (const r of ordered) {
      // Routes that may leave the header out are tried without it too: the ids alone must not open the other account.
      const headerChoices = r.accountHeaderOptional
        ? [stranger.headers, {}]
        : r.accountScoped
          ? [stranger.headers]
          : [{}];
      for (const headers of headerChoices) {
        for (const probe of probesOf(r, foreign)) {
          const answer = await send(stranger.client, probe, undefined, headers);
          figures.probes++;
          const seen = `${probe.method} ${probe.path} ${JSON.stringify(probe.body ?? '')} -> ${answer.status}`;
          const leaked = leakedNames(textOf(answer), probe, foreign);
          if (leaked.length > 0) leaks.push(`${seen} shows ${leaked.join(', ')} ${textOf(answer)}`);
          if (probe.subjects.length > 0 && (answer.status < 400 || answer.status >= 500)) {
            wronglyServed.push(`${seen} (${probe.subjects.join(', ')}): ${answer.body?.message}`);
          }
        }
      }
    }
    figures.leaks = leaks.length;
    expect(leaks).toEqual([]);
    expect(wronglyServed).toEqual([]);
    expect(await accountSnapshot(server(), foreign.ids.accountId)).toEqual(before);
    expect(figures.probes).toBeGreaterThan(signedIn.length);
  });

  it("shows the owner their own account's data through the same reads, so the stranger's empty answers mean something", async () => {
    const reads = signedInRoutes(server()).filter((r) => r.method === 'GET' && r.url.startsWith('/api/'));
    const seen = new Set<string>();
    for (const r of reads) {
      const probe = { method: 'GET', path: fabricated(r.url), subjects: [] };
      const answer = await send(foreign.owner.client, probe, undefined, foreign.owner.headers);
      for (const name of leakedNames(textOf(answer), probe, foreign)) seen.add(name);
    }
    // Never shown again after creation, or not shown by any read: the key's secret, the card's token
    // at the processor, the customer, the support ticket.
    const neverRead = ['keySecret', 'cardToken', 'customerId', 'ticketId', 'ticketMessage'];
    expect([...seen].sort()).toEqual(
      Object.keys(foreign.identifying)
        .filter((name) => !neverRead.includes(name))
        .sort(),
    );
  });

  it('registers neither the outbox nor the admin routes in production, and nothing else unguarded', async () => {
    const config = loadConfig(productionEnv({ WEB_DIST: '/nonexistent' }));
    const production = await buildApp(config, { db: server().db, logger: false });
    try {
      await production.app.ready();
      const unguarded = production.routes
        .filter((r) => r.method !== 'HEAD' && !isGuarded(r.url))
        .map((r) => outsideKind(r));
      // The metrics route answers 404 unless METRICS_TOKEN is set, and then only to its bearer.
      expect(new Set(unguarded)).toEqual(new Set(['/api/docs', '/metrics']));
    } finally {
      await production.app.close();
    }
  });

  it('refuses an account-scoped call without the header', async () => {
    const answer = await stranger.client.get('/api/v1.0/account/details');
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe(Messages.accountHeaderRequired);
  });

  it('answers the admin routes only to the admin token, never to a signed-in user', async () => {
    const admin = allRoutes(server()).filter((r) => outsideKind(r) === '/admin/');
    expect(admin.map(keyOf)).toContain('POST /admin/command');
    const body = { args: ['accounts', 'list', '--json'] };
    for (const r of admin) {
      const asUser = await send(stranger.client, { method: r.method, path: r.url, body });
      const wrongToken = await send(stranger.client, { method: r.method, path: r.url, body }, null, {
        'x-admin-token': 'not-the-token',
      });
      for (const answer of [asUser, wrongToken]) {
        expect({ route: keyOf(r), status: answer.status, message: answer.body.message }).toEqual({
          route: keyOf(r),
          status: 403,
          message: 'Forbidden',
        });
      }
    }
  });
});
