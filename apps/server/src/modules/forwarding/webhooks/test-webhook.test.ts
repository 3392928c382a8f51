import { randomBytes } from 'node:crypto';
import { ForwardingMessages, TokenForwardingTransaction } from '@ebs/contract';
import { FormatRegistry } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { testWebhook, webhookPayload } from './test-webhook.ts';
import { type Answer, startReceiver } from './webhooks.test-kit.ts';

// Fastify's Ajv knows date-time; TypeBox's own checker has to be told.
if (!FormatRegistry.Has('date-time')) {
  FormatRegistry.Set('date-time', (v) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/.test(v));
}

const secret = `whsec_${randomBytes(32).toString('base64')}`;
const allowing = { WEBHOOK_ALLOW_PRIVATE_TARGETS: true, WEBHOOK_TIMEOUT_MS: 5000 };

const receivers: Array<{ close(): Promise<void> }> = [];
const receiver = async (answers: Answer[]) => {
  const r = await startReceiver(answers);
  receivers.push(r);
  return r;
};
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

describe('the test webhook', () => {
  it('posts a signed sample transaction and returns what the target answered', async () => {
    const target = await receiver([{ status: 418, body: 'short and stout' }]);
    const result = await testWebhook({
      url: target.url,
      header: 'X-Token',
      headerValue: 't1',
      secrets: [secret],
      config: allowing,
    });
    expect(result).toEqual({ url: target.url, status: 418, body: 'short and stout' });

    const [request] = target.received;
    expect(request?.headers['x-token']).toBe('t1');
    const sample = new Webhook(secret).verify(request?.body ?? '', request?.headers as Record<string, string>) as {
      type: string;
      timestamp: string;
      data: unknown;
    };
    expect(sample.type).toBe('token_forwarding.test');
    expect(new Date(sample.timestamp).toISOString()).toBe(sample.timestamp);
    expect(Value.Check(TokenForwardingTransaction, sample.data)).toBe(true);
    expect(sample.data).toMatchObject({ webhookId: request?.headers['webhook-id'] });
  });

  it('answers status 0 and the reason when the target cannot be reached', async () => {
    const closed = await startReceiver([]);
    await closed.close();
    expect(await testWebhook({ url: closed.url, secrets: [secret], config: allowing })).toEqual({
      url: closed.url,
      status: 0,
      body: 'The webhook URL could not be reached: the connection was refused',
    });
  });

  it('refuses a private target, a URL that is not http(s) and a bad header as a 400', async () => {
    const target = await receiver([{ status: 200 }]);
    const refusing = { ...allowing, WEBHOOK_ALLOW_PRIVATE_TARGETS: false };
    await expect(testWebhook({ url: target.url, secrets: [secret], config: refusing })).rejects.toMatchObject({
      statusCode: 400,
      message: ForwardingMessages.webhookTargetRefused,
    });
    await expect(testWebhook({ url: 'ftp://example.com/', secrets: [secret], config: allowing })).rejects.toMatchObject(
      {
        statusCode: 400,
        message: ForwardingMessages.webhookUrlInvalid,
      },
    );
    await expect(
      testWebhook({
        url: target.url,
        header: 'Webhook-Signature',
        headerValue: 'v1,forged',
        secrets: [secret],
        config: allowing,
      }),
    ).rejects.toMatchObject({ statusCode: 400 });
    expect(target.received).toHaveLength(0);
  });

  it('writes the payload as { type, timestamp, data }', () => {
    const at = new Date('2026-11-21T10:00:00.000Z');
    expect(JSON.parse(webhookPayload('token_forwarding.completed', { amount: '2' }, at))).toEqual({
      type: 'token_forwarding.completed',
      timestamp: '2026-11-21T10:00:00.000Z',
      data: { amount: '2' },
    });
  });
});
