import { createHmac, randomBytes } from 'node:crypto';
import { badRequest, ForwardingMessages } from '@ebs/contract';

/** Standard Webhooks: secrets are `whsec_` and the base64 of the key bytes. */
const SECRET_PREFIX = 'whsec_';

export const WEBHOOK_USER_AGENT = 'EBS-Console-Webhooks/1.0';

/**
 * Headers a delivery sets itself or that would change how the request travels; a wallet's custom
 * header naming one of them would break the signature or the request.
 */
const RESERVED_HEADERS = new Set([
  'content-type',
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'host',
  'connection',
  'keep-alive',
  'upgrade',
  'expect',
  'te',
  'trailer',
  'user-agent',
]);

/** RFC 9110 token characters. */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Tabs are legal inside a header value; other control characters would split or end the header. */
const isControl = (char: string) => {
  const code = char.charCodeAt(0);
  return (code < 0x20 && code !== 0x09) || code === 0x7f;
};

/** A new webhook-id: the same id goes with every retry of one message. */
export const newWebhookId = () => `msg_${randomBytes(16).toString('hex')}`;

/** `v1,` and the base64 HMAC-SHA256 of `id.timestamp.body` keyed with the decoded secret. */
export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  if (!Number.isInteger(timestamp)) throw new Error('A webhook timestamp is a whole number of seconds.');
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  if (key.length === 0) throw new Error('The webhook signing secret is empty.');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/**
 * Refuses a custom header the delivery could not send as given: not an HTTP header name, one the
 * delivery sets itself (content-type, webhook-*...), or a value with line breaks. Throws a 400.
 */
export function checkWebhookHeader(header: string | null | undefined, value: string | null | undefined): void {
  if (!header) return;
  if (!HEADER_NAME.test(header)) throw badRequest(ForwardingMessages.webhookHeaderInvalid);
  const name = header.toLowerCase();
  if (RESERVED_HEADERS.has(name) || name.startsWith('webhook-'))
    throw badRequest(ForwardingMessages.webhookHeaderReserved(header));
  if (value && [...value].some(isControl)) throw badRequest(ForwardingMessages.webhookHeaderValueInvalid);
}

export interface WebhookHeaderInput {
  id: string;
  /** Seconds since the epoch, the time of this attempt. */
  timestamp: number;
  body: string;
  /** The account's signing secrets in force, `whsec_...`: the current one, and the previous one after a rotation. */
  secrets: readonly string[];
  header?: string | null;
  headerValue?: string | null;
}

/**
 * The headers of one delivery attempt: signed per Standard Webhooks, plus the wallet's header. A
 * signature per secret, space-separated as the specification allows, so that during the overlap
 * after a rotation a receiver holding either secret verifies the same delivery.
 */
export function webhookHeaders(input: WebhookHeaderInput): Record<string, string> {
  checkWebhookHeader(input.header, input.headerValue);
  if (input.secrets.length === 0) throw new Error('A webhook needs a signing secret.');
  const headers: Record<string, string> = {};
  if (input.header) headers[input.header] = input.headerValue ?? '';
  return {
    ...headers,
    'content-type': 'application/json',
    'user-agent': WEBHOOK_USER_AGENT,
    'webhook-id': input.id,
    'webhook-timestamp': String(input.timestamp),
    'webhook-signature': input.secrets.map((s) => signWebhook(s, input.id, input.timestamp, input.body)).join(' '),
  };
}
