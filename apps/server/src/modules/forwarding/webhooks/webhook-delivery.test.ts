import { ForwardingMessages } from '@ebs/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseRetryAfter, postWebhook } from './webhook-delivery.ts';
import { type Answer, startReceiver } from './webhooks.test-kit.ts';

/** rebind.test answers 127.0.0.1 to the check, then 127.0.0.2 (where nothing listens) to anyone after. */
const lookups = vi.hoisted(() => ({ count: 0 }));
vi.mock('node:dns/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:dns/promises')>();
  const lookup = async (host: string, options: { all: true }) => {
    if (host !== 'rebind.test') return real.lookup(host, options);
    lookups.count += 1;
    return [{ address: lookups.count === 1 ? '127.0.0.1' : '127.0.0.2', family: 4 }];
  };
  return { ...real, default: { ...real, lookup }, lookup };
});

const receivers: Array<{ close(): Promise<void> }> = [];
const receiver = async (answers: Answer[], host?: string) => {
  const r = await startReceiver(answers, host);
  receivers.push(r);
  return r;
};
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

const post = (url: string, options: { allowPrivate?: boolean; timeoutMs?: number } = {}) =>
  postWebhook({
    url,
    headers: { 'content-type': 'application/json' },
    body: '{"type":"token_forwarding.test"}',
    timeoutMs: options.timeoutMs ?? 5000,
    allowPrivate: options.allowPrivate ?? true,
  });

describe('posting a webhook', () => {
  it('sends the body and headers and keeps the first 2 KB of the answer', async () => {
    const target = await receiver([{ status: 200, body: `${'é'.repeat(1500)}` }]);
    const answer = await post(target.url);
    expect(answer.statusCode).toBe(200);
    expect(Buffer.byteLength(answer.body)).toBeLessThanOrEqual(2048);
    expect(answer.body.startsWith('é'.repeat(1000))).toBe(true);
    expect(target.received).toMatchObject([{ path: '/hook', body: '{"type":"token_forwarding.test"}' }]);
    expect(target.received[0]?.headers['content-type']).toBe('application/json');
  });

  it('does not follow a redirect: the 302 is the answer', async () => {
    const target = await receiver([{ status: 302, headers: { location: '/elsewhere' }, body: 'moved' }]);
    const answer = await post(target.url);
    expect(answer).toMatchObject({ statusCode: 302, body: 'moved' });
    expect(target.received.map((r) => r.path)).toEqual(['/hook']);
  });

  it('reads Retry-After as seconds or as a date', async () => {
    const target = await receiver([{ status: 503, headers: { 'retry-after': '120' } }]);
    expect(await post(target.url)).toMatchObject({ statusCode: 503, retryAfterSeconds: 120 });
    const now = Date.parse('2026-11-21T10:00:00Z');
    expect(parseRetryAfter('Sat, 21 Nov 2026 10:05:00 GMT', now)).toBe(300);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });

  it('turns a refused connection and a silent target into an answer without status', async () => {
    const closed = await startReceiver([]);
    await closed.close();
    expect(await post(closed.url)).toMatchObject({
      statusCode: null,
      body: 'The webhook URL could not be reached: the connection was refused',
    });
    const silent = await receiver([{ status: 200, hang: true }]);
    expect(await post(silent.url, { timeoutMs: 300 })).toMatchObject({
      statusCode: null,
      body: 'The webhook URL could not be reached: no answer within 300 ms',
    });
  });

  it('refuses a private target unless allowed, without sending anything', async () => {
    const target = await receiver([{ status: 200 }]);
    expect(await post(target.url, { allowPrivate: false })).toMatchObject({
      statusCode: null,
      body: ForwardingMessages.webhookTargetRefused,
    });
    expect(target.received).toHaveLength(0);
  });

  it('connects to the address it checked, even when the name resolves elsewhere afterwards', async () => {
    const target = await receiver([{ status: 204 }]);
    const answer = await post(`http://rebind.test:${target.port}/hook`);
    expect(answer.statusCode).toBe(204);
    expect(target.received[0]?.headers.host).toBe(`rebind.test:${target.port}`);
  });

  it('reaches an IPv6 literal target when private targets are allowed', async () => {
    const target = await receiver([{ status: 200, body: 'ok' }], '::1');
    expect(await post(target.url)).toMatchObject({ statusCode: 200, body: 'ok' });
  });
});
