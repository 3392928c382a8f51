import { randomBytes } from 'node:crypto';
import { AppError, ForwardingMessages } from '@ebs/contract';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { checkWebhookHeader, newWebhookId, signWebhook, webhookHeaders } from './webhook-signature.ts';

const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;
const nowSeconds = () => Math.floor(Date.now() / 1000);

describe('webhook signatures', () => {
  it('matches the example of the Standard Webhooks specification', () => {
    expect(
      signWebhook(
        'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
        'msg_p5jXN8AQM9LWM0D4loKWxJek',
        1614265330,
        '{"test": 2432232314}',
      ),
    ).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('is verified by the standardwebhooks library, and a tampered body is not', () => {
    const secret = newSecret();
    const body = JSON.stringify({ type: 'token_forwarding.completed', data: { amount: '1.5' } });
    const headers = webhookHeaders({ id: newWebhookId(), timestamp: nowSeconds(), body, secrets: [secret] });
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(secret).verify(body.replace('1.5', '9.5'), headers)).toThrow('No matching signature');
    expect(() => new Webhook(newSecret()).verify(body, headers)).toThrow('No matching signature');
  });

  it('signs once per secret in force, so a receiver holding either the previous or the new secret verifies', () => {
    const [current, previous] = [newSecret(), newSecret()];
    const body = JSON.stringify({ type: 'token_forwarding.completed', data: { amount: '1.5' } });
    const headers = webhookHeaders({ id: newWebhookId(), timestamp: nowSeconds(), body, secrets: [current, previous] });
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}= v1,[A-Za-z0-9+/]{43}=$/);
    expect(new Webhook(current).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(previous).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(newSecret()).verify(body, headers)).toThrow('No matching signature');
  });

  it('sends the id, timestamp, JSON type, product user agent and the wallet header', () => {
    const id = newWebhookId();
    const headers = webhookHeaders({
      id,
      timestamp: 1700000000,
      body: '{}',
      secrets: [newSecret()],
      header: 'X-Api-Key',
      headerValue: 'abc 123',
    });
    expect(headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': 'EBS-Console-Webhooks/1.0',
      'webhook-id': id,
      'webhook-timestamp': '1700000000',
      'X-Api-Key': 'abc 123',
    });
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(id).toMatch(/^msg_[0-9a-f]{32}$/);
  });

  it('refuses a custom header that would replace one the delivery sets, as a 400', () => {
    for (const header of ['webhook-signature', 'Webhook-Id', 'WEBHOOK-TIMESTAMP', 'webhook-anything', 'Content-Type']) {
      let error: unknown;
      try {
        webhookHeaders({ id: 'msg_1', timestamp: 1, body: '{}', secrets: [newSecret()], header, headerValue: 'x' });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({
        statusCode: 400,
        message: `Webhook Header must not be "${header}": every delivery sets it.`,
      });
    }
  });

  it('refuses a header name that is not a token and a value with a line break', () => {
    expect(() => checkWebhookHeader('X Bad', 'v')).toThrow(ForwardingMessages.webhookHeaderInvalid);
    expect(() => checkWebhookHeader('X-Colon:', 'v')).toThrow(ForwardingMessages.webhookHeaderInvalid);
    expect(() => checkWebhookHeader('X-Token', 'a\r\nX-Injected: 1')).toThrow(
      ForwardingMessages.webhookHeaderValueInvalid,
    );
    expect(() => checkWebhookHeader('X-Token', 'Bearer a\tb')).not.toThrow();
  });
});
