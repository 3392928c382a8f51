import { randomBytes, randomUUID } from 'node:crypto';
import { ForwardingMessages, type WebhookAttempt } from '@ebs/contract';
import { sql } from 'kysely';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../../db/database.ts';
import { unseal } from '../../../secrets.ts';
import { testDatabases } from '../../../testing/databases.ts';
import { rotateSigningSecret } from '../../accounts/account-settings.service.ts';
import { findSealedSigningSecret, insertAccount } from '../../accounts/accounts.test-kit.ts';
import { newSealedSigningSecret } from '../../accounts/signing-secret.ts';
import { insertUser } from '../../identity/identity.test-kit.ts';
import { deliverWebhooks, WEBHOOK_RETRY_SCHEDULE } from './webhooks.job.ts';
import {
  type Answer,
  type DueWebhookWallet,
  insertDueWebhook,
  receiverVerdict,
  startReceiver,
} from './webhooks.test-kit.ts';

describe.each(testDatabases)('webhook deliveries on $name', (database) => {
  let db: Db;
  let close: () => Promise<void>;
  const dataKey = randomBytes(32);
  const config = { WEBHOOK_ALLOW_PRIVATE_TARGETS: true, WEBHOOK_TIMEOUT_MS: 5000 };
  const receivers: Array<{ close(): Promise<void> }> = [];

  beforeAll(async () => {
    ({ db, close } = await database.open());
  });
  afterAll(() => close?.());
  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((r) => r.close()));
    // A message a test leaves waiting must not be tried by the runs of the next test.
    await db
      .updateTable('token_forwarding_transactions')
      .set({ webhook_status: 'FAILED' })
      .where('webhook_status', '=', 'PENDING')
      .execute();
  });

  const receiver = async (answers: Answer[]) => {
    const r = await startReceiver(answers);
    receivers.push(r);
    return r;
  };

  const deliver = (options: { now?: () => Date; schedule?: number[]; allowPrivate?: boolean } = {}) =>
    deliverWebhooks({
      db,
      dataKey,
      config: { ...config, WEBHOOK_ALLOW_PRIVATE_TARGETS: options.allowPrivate ?? true },
      now: options.now,
      schedule: options.schedule,
    });

  /** A completed forward whose webhook is due now. */
  async function forward(wallet: DueWebhookWallet) {
    const user = await insertUser(db, {
      email: `hooks-${randomUUID()}@example.com`,
      givenName: 'Hook',
      familyName: 'Owner',
      passwordHash: 'h',
      referralCode: null,
    });
    const account = await insertAccount(db, {
      name: 'Hooks',
      customerId: null,
      ownerId: user,
      roleName: 'OWNER',
      signingSecretSealed: newSealedSigningSecret(dataKey),
    });
    const message = await insertDueWebhook(db, dataKey, account.id, wallet);
    const secret = unseal(dataKey, (await findSealedSigningSecret(db, account.id)) ?? '');
    return { ...message, accountId: account.id, ownerId: user, secret };
  }

  const stateOf = async (id: string) => {
    const row = await db
      .selectFrom('token_forwarding_transactions')
      .select(['webhook_status', 'webhook_attempt', 'webhook_log', 'webhook_next_at'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    return { ...row, webhook_log: row.webhook_log as WebhookAttempt[] };
  };

  it('retries until a 2xx, with the same id, the wallet header and a valid signature each time', async () => {
    const target = await receiver([{ status: 500, body: 'down' }, { status: 500 }, { status: 200, body: 'thanks' }]);
    const message = await forward({ url: target.url, header: 'X-Api-Key', headerValue: 'key-123' });
    const runs = [];
    for (let i = 0; i < 4; i++) runs.push(await deliver({ schedule: [0, 0, 0] }));
    expect(runs.map((r) => [r.delivered, r.retried, r.failed])).toEqual([
      [0, 1, 0],
      [0, 1, 0],
      [1, 0, 0],
      [0, 0, 0],
    ]);

    expect(target.received).toHaveLength(3);
    for (const request of target.received) {
      expect(request.body).toBe(message.payload);
      expect(request.headers['webhook-id']).toBe(message.webhookId);
      expect(request.headers['x-api-key']).toBe('key-123');
      expect(request.headers['user-agent']).toBe('EBS-Console-Webhooks/1.0');
      const verified = new Webhook(message.secret).verify(request.body, request.headers as Record<string, string>);
      expect(verified).toMatchObject({ type: 'token_forwarding.completed', data: { amount: '1.5' } });
    }
    const state = await stateOf(message.id);
    expect(state).toMatchObject({ webhook_status: 'DELIVERED', webhook_attempt: 3, webhook_next_at: null });
    expect(state.webhook_log.map((a) => [a.attempt, a.url, a.statusCode, a.response])).toEqual([
      [1, target.url, 500, 'down'],
      [2, target.url, 500, ''],
      [3, target.url, 200, 'thanks'],
    ]);
  });

  it('waits by the schedule, or longer when Retry-After asks (up to a day), stamping the attempt time', async () => {
    const cases = [
      { retryAfter: '600', wait: 600 },
      { retryAfter: '999999', wait: 86_400 },
      { retryAfter: '1', wait: WEBHOOK_RETRY_SCHEDULE[0] },
    ];
    const messages = [];
    for (const c of cases) {
      const target = await receiver([{ status: 503, headers: { 'retry-after': c.retryAfter } }]);
      messages.push({ ...c, target, message: await forward({ url: target.url }) });
    }
    // A whole second, not before the messages fell due.
    const at = new Date(Math.ceil(Date.now() / 1000) * 1000);
    expect(await deliver({ now: () => at })).toMatchObject({ retried: 3, delivered: 0, failed: 0 });
    for (const { message, wait, target } of messages) {
      const state = await stateOf(message.id);
      expect(state.webhook_status).toBe('PENDING');
      expect(state.webhook_next_at?.getTime()).toBe(at.getTime() + (wait ?? 0) * 1000);
      expect(state.webhook_log).toEqual([
        {
          attempt: 1,
          at: at.toISOString(),
          url: target.url,
          statusCode: 503,
          durationMs: expect.any(Number),
          response: '',
        },
      ]);
      expect(target.received[0]?.headers['webhook-timestamp']).toBe(String(at.getTime() / 1000));
    }
  });

  it('does not follow a redirect and counts it as a failed attempt', async () => {
    const target = await receiver([{ status: 302, headers: { location: '/elsewhere' } }]);
    const message = await forward({ url: target.url });
    expect(await deliver()).toMatchObject({ retried: 1, delivered: 0 });
    expect(target.received.map((r) => r.path)).toEqual(['/hook']);
    const state = await stateOf(message.id);
    expect(state).toMatchObject({ webhook_status: 'PENDING', webhook_attempt: 1 });
    expect(state.webhook_log[0]?.statusCode).toBe(302);
  });

  it('gives up after the last attempt of the schedule', async () => {
    const target = await receiver([{ status: 500 }]);
    const message = await forward({ url: target.url });
    expect(await deliver({ schedule: [0] })).toMatchObject({ retried: 1 });
    expect(await deliver({ schedule: [0] })).toMatchObject({ failed: 1 });
    expect(await deliver({ schedule: [0] })).toMatchObject({ retried: 0, failed: 0 });
    expect(target.received).toHaveLength(2);
    expect(await stateOf(message.id)).toMatchObject({
      webhook_status: 'FAILED',
      webhook_attempt: 2,
      webhook_next_at: null,
    });
  });

  it('delivers once when two runs start together', async () => {
    const target = await receiver([{ status: 200 }]);
    const message = await forward({ url: target.url });
    const runs = await Promise.all([deliver(), deliver()]);
    expect(runs.reduce((n, r) => n + r.delivered, 0)).toBe(1);
    expect(target.received).toHaveLength(1);
    expect((await stateOf(message.id)).webhook_log).toHaveLength(1);
  });

  it('leaves a message another process holds until its lease runs out', async () => {
    const target = await receiver([{ status: 200 }]);
    const message = await forward({ url: target.url });
    await db
      .updateTable('token_forwarding_transactions')
      .set({ webhook_lease_until: sql<Date>`now() + interval '1 minute'` })
      .where('id', '=', message.id)
      .execute();
    await deliver();
    expect(target.received).toHaveLength(0);
    await deliver({ now: () => new Date(Date.now() + 2 * 60_000) });
    expect(target.received).toHaveLength(1);
    expect(await stateOf(message.id)).toMatchObject({ webhook_status: 'DELIVERED', webhook_attempt: 1 });
  });

  it('marks the webhook failed, saying why, when the wallet is deleted or has no webhook', async () => {
    const target = await receiver([{ status: 200 }]);
    const deleted = await forward({ url: target.url, deleted: true });
    const without = await forward({ url: null });
    expect(await deliver()).toMatchObject({ failed: 2, delivered: 0 });
    expect(target.received).toHaveLength(0);
    expect((await stateOf(deleted.id)).webhook_log).toMatchObject([
      { attempt: 1, statusCode: null, response: 'The wallet has been deleted; the webhook was not sent.' },
    ]);
    expect(await stateOf(without.id)).toMatchObject({
      webhook_status: 'FAILED',
      webhook_log: [
        { attempt: 1, url: '', statusCode: null, response: 'The wallet has no webhook URL; the webhook was not sent.' },
      ],
    });
  });

  it('refuses a private target unless configured to allow it', async () => {
    const target = await receiver([{ status: 200 }]);
    const message = await forward({ url: target.url });
    expect(await deliver({ allowPrivate: false })).toMatchObject({ retried: 1 });
    expect(target.received).toHaveLength(0);
    expect((await stateOf(message.id)).webhook_log).toMatchObject([
      { statusCode: null, response: ForwardingMessages.webhookTargetRefused },
    ]);
  });

  it('gives an account made before signing secrets one, and signs with it', async () => {
    const target = await receiver([{ status: 200 }]);
    const message = await forward({ url: target.url });
    const accountId = (
      await db
        .selectFrom('token_forwarding_transactions')
        .select('account_id')
        .where('id', '=', message.id)
        .executeTakeFirstOrThrow()
    ).account_id;
    await db.updateTable('accounts').set({ signing_secret_sealed: null }).where('id', '=', accountId).execute();
    expect(await deliver()).toMatchObject({ delivered: 1 });
    const secret = unseal(dataKey, (await findSealedSigningSecret(db, accountId)) ?? '');
    expect(secret).not.toBe(message.secret);
    const request = target.received[0];
    expect(() =>
      new Webhook(secret).verify(request?.body ?? '', request?.headers as Record<string, string>),
    ).not.toThrow();
  });

  /** The owner of the message's account rotates its signing secret at `at`. */
  const rotate = (message: { accountId: string; ownerId: string }, at: Date) =>
    rotateSigningSecret(
      { db, secrets: { dataKey }, mailer: { send: async () => {} }, config: { PRODUCT_NAME: 'EBS', PUBLIC_URL: '' } },
      { userId: message.ownerId, sessionId: 'session', email: 'owner@example.com' },
      { id: message.accountId, roleName: 'OWNER' },
      { error: () => {} },
      at,
    );

  it('signs a retry with the secrets in force when it is sent: both for 24 hours after a rotation, then the new one', async () => {
    const target = await receiver([{ status: 500 }, { status: 500 }, { status: 500 }, { status: 200 }]);
    const message = await forward({ url: target.url });
    // A whole second, not before the message fell due.
    const before = new Date(Math.ceil(Date.now() / 1000) * 1000);
    expect(await deliver({ now: () => before, schedule: [1, 1, 1] })).toMatchObject({ retried: 1 });

    const rotatedAt = new Date(before.getTime() + 60_000);
    const { secret: newSecret, previousSecretExpiresAt } = await rotate(message, rotatedAt);
    const overlapEnd = rotatedAt.getTime() + 24 * 3600_000;
    expect(previousSecretExpiresAt).toBe(new Date(overlapEnd).toISOString());
    for (const at of [rotatedAt.getTime() + 1000, overlapEnd - 1000, overlapEnd]) {
      await deliver({ now: () => new Date(at), schedule: [1, 1, 1] });
    }

    const verdicts = target.received.map((request) => ({
      signatures: String(request.headers['webhook-signature']).split(' ').length,
      old: receiverVerdict(message.secret, request),
      new: receiverVerdict(newSecret, request),
    }));
    const refused = 'No matching signature found';
    expect(verdicts).toEqual([
      { signatures: 1, old: 'verified', new: refused },
      { signatures: 2, old: 'verified', new: 'verified' },
      { signatures: 2, old: 'verified', new: 'verified' },
      { signatures: 1, old: refused, new: 'verified' },
    ]);
    expect(new Set(target.received.map((r) => r.headers['webhook-id']))).toEqual(new Set([message.webhookId]));
    expect(await stateOf(message.id)).toMatchObject({ webhook_status: 'DELIVERED', webhook_attempt: 4 });
  });
});
