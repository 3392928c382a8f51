import { type AccountSummary, Messages, type RotatedSigningSecret } from '@ebs/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { Client } from '../../testing/client.ts';
import { testDatabases } from '../../testing/databases.ts';
import { reportFigures } from '../../testing/report.ts';
import { serverFor, type TestServer } from '../../testing/server.ts';
import { deliverWebhooks } from '../forwarding/webhooks/webhooks.job.ts';
import {
  insertDueWebhook,
  type Received,
  receiverVerdict,
  startReceiver,
} from '../forwarding/webhooks/webhooks.test-kit.ts';
import { setFeature } from './accounts.store.ts';

const ROTATE = '/api/v1.0/account/signing-secret/rotate';
const READ = '/api/v1.0/account/signing-secret';
const REFUSED = 'No matching signature found';
const TEST_WEBHOOK = '/api/v1.0/token-forwarding/testWebhook';

/** An owner with a new account, and a second user the owner added as a MEMBER. */
async function ownerAndMember(server: TestServer) {
  const owner = new Client(server.url);
  await owner.signUp();
  const id = (await owner.post<AccountSummary>('/api/v1.0/account', { accountName: 'Hooks' })).body.data.id;
  const h = { 'ebs-account-id': id };
  const member = new Client(server.url);
  const { email, userId: memberId } = await member.signUp();
  expect((await owner.post('/api/v1.0/account/user', { email }, h)).status).toBe(200);
  // An added user joins at their next look at their accounts.
  expect((await member.get('/api/v1.0/account')).status).toBe(200);
  return { owner, member, memberId, id, h };
}

const storedSecrets = (server: TestServer, id: string) =>
  server.db
    .selectFrom('accounts')
    .select(['signing_secret_sealed', 'previous_signing_secret_sealed', 'signing_secret_rotated_at'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

describe.each(testDatabases)('signing secret rotation on $name', (database) => {
  // Deliveries are made by the test at the times it chooses, never by the server's own engine.
  const server = serverFor(database, {
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    FORWARDING_ENGINE: 'off',
    JOBS_INTERVAL_SECONDS: '0',
  });
  const figures = { rotations: 0, deliveries: 0, oldSecretVerified: 0, oldSecretRefused: 0, refusedCallers: 0 };
  afterAll(() => reportFigures(`signing secret rotation (${database.name})`, figures));

  const read = async (c: Client, h: Record<string, string>) =>
    (await c.get<{ secret: string }>(READ, h)).body.data.secret;

  const rotate = async (c: Client, h: Record<string, string>) => {
    const answer = await c.post<RotatedSigningSecret>(ROTATE, undefined, h);
    expect({ status: answer.status, message: answer.body.message }).toEqual({
      status: 200,
      message: Messages.signingSecretRotated,
    });
    figures.rotations++;
    return answer;
  };

  /**
   * Delivers the account's due webhooks as the engine would at `at`, retrying a failure a second
   * later: never within the same run, so each call is one attempt.
   */
  const deliverAt = async (at: Date) => {
    const run = await deliverWebhooks({
      db: server().db,
      dataKey: server().deps.secrets.dataKey,
      config: { WEBHOOK_ALLOW_PRIVATE_TARGETS: true, WEBHOOK_TIMEOUT_MS: 5000 },
      now: () => at,
      schedule: [1, 1, 1],
    });
    expect(run.errors).toEqual([]);
  };

  /** What a receiver holding the removed member's copy makes of each delivery. */
  const oldVerdicts = (secret: string, received: Received[]) =>
    received.map((request) => {
      const verdict = receiverVerdict(secret, request);
      figures.deliveries++;
      if (verdict === 'verified') figures.oldSecretVerified++;
      if (verdict === REFUSED) figures.oldSecretRefused++;
      return verdict;
    });

  it('a copy of the signing secret made before the owner rotated it stops verifying webhooks once 24 hours have passed', async () => {
    const { owner, member, memberId, id, h } = await ownerAndMember(server());
    // A copy taken out of the account before the rotation (the member cannot reveal it themselves).
    const copied = await read(owner, h);
    expect((await owner.call('DELETE', `/api/v1.0/account/${memberId}`, { headers: h })).status).toBe(200);
    expect((await member.get(READ, h)).status).toBe(403);

    const target = await startReceiver([{ status: 500 }, { status: 500 }, { status: 200 }]);
    try {
      await insertDueWebhook(server().db, server().deps.secrets.dataKey, id, { url: target.url });
      const rotated = await rotate(owner, h);
      expect(rotated.headers.get('cache-control')).toBe('no-store');
      const { secret, previousSecretExpiresAt } = rotated.body.data;
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(secret).not.toBe(copied);
      expect(await read(owner, h)).toBe(secret);
      const overlapEnd = Date.parse(previousSecretExpiresAt ?? '');
      expect(overlapEnd - Date.now()).toBeGreaterThan(24 * 3600_000 - 60_000);
      expect(overlapEnd - Date.now()).toBeLessThanOrEqual(24 * 3600_000);

      // Just after the rotation, at the last second of the overlap, and when it is over.
      for (const at of [Date.now() + 1000, overlapEnd - 1000, overlapEnd]) await deliverAt(new Date(at));

      // The Test button of Create Wallet sends its sample now, signed as a delivery is.
      await setFeature(server().db, id, 'TOKEN_FORWARDING', true);
      const tested = await owner.post(TEST_WEBHOOK, { url: target.url, header: 'X-Shop', headerValue: 'shop-1' }, h);
      expect(tested.status).toBe(200);

      expect(target.received).toHaveLength(4);
      expect(oldVerdicts(copied, target.received)).toEqual(['verified', 'verified', REFUSED, 'verified']);
      expect(target.received.map((request) => receiverVerdict(secret, request))).toEqual([
        'verified',
        'verified',
        'verified',
        'verified',
      ]);
    } finally {
      await target.close();
    }
  });

  it('refuses a MEMBER rotating the signing secret, with or without a body, and keeps the secret', async () => {
    const { owner, member, id, h } = await ownerAndMember(server());
    const secret = await read(owner, h);
    const before = await storedSecrets(server(), id);
    for (const body of [undefined, { secret: 'whsec_mine' }]) {
      const answer = await member.post(ROTATE, body, h);
      expect({ status: answer.status, message: answer.body.message }).toEqual({
        status: 403,
        message: Messages.ownerOnlySigningSecret,
      });
      figures.refusedCallers++;
    }
    expect(await storedSecrets(server(), id)).toEqual(before);
    expect(await read(owner, h)).toBe(secret);
  });

  it("refuses a user rotating another account's signing secret, and keeps that secret", async () => {
    const { owner, id, h } = await ownerAndMember(server());
    const secret = await read(owner, h);
    const before = await storedSecrets(server(), id);
    const stranger = new Client(server().url);
    await stranger.signUp();
    await stranger.post('/api/v1.0/account', { accountName: 'Elsewhere' });
    const answer = await stranger.post(ROTATE, undefined, h);
    expect({ status: answer.status, message: answer.body.message }).toEqual({
      status: 403,
      message: Messages.notAMember,
    });
    figures.refusedCallers++;
    expect(await storedSecrets(server(), id)).toEqual(before);
    expect(await read(owner, h)).toBe(secret);
  });

  it('rotating again within 24 hours keeps only the latest replaced secret: the first one stops verifying at once', async () => {
    const { owner, id, h } = await ownerAndMember(server());
    const first = await read(owner, h);
    const second = (await rotate(owner, h)).body.data.secret;
    const third = (await rotate(owner, h)).body.data.secret;
    const target = await startReceiver([{ status: 200 }]);
    try {
      await insertDueWebhook(server().db, server().deps.secrets.dataKey, id, { url: target.url });
      await deliverAt(new Date(Date.now() + 1000));
      const [request] = target.received;
      if (!request) throw new Error('the webhook was not delivered');
      expect(String(request.headers['webhook-signature']).split(' ')).toHaveLength(2);
      expect(oldVerdicts(first, [request])).toEqual([REFUSED]);
      expect([receiverVerdict(second, request), receiverVerdict(third, request)]).toEqual(['verified', 'verified']);
    } finally {
      await target.close();
    }
  });
});
