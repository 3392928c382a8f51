import type { Readable } from 'node:stream';
import { ForwardingMessages } from '@ebs/contract';
import { Agent, request } from 'undici';
import { checkWebhookUrl, pinnedLookup } from './webhook-target.ts';

/** How much of an answer is kept: enough to tell an error page from a JSON reply. */
export const WEBHOOK_RESPONSE_KEEP_BYTES = 2048;

export interface WebhookResponse {
  /** The target's HTTP status, or null when no answer came (refused, unreachable, timed out). */
  statusCode: number | null;
  /** The first 2 KB of the answer, or why there was none. */
  body: string;
  durationMs: number;
  /** The target's Retry-After, in seconds, when it sent one. */
  retryAfterSeconds?: number;
}

export interface WebhookPost {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  allowPrivate: boolean;
}

/** Retry-After as seconds (RFC 9110: a number of seconds or an HTTP date). */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Number(text);
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

async function readStart(body: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      chunks.push(chunk as Buffer);
      size += (chunk as Buffer).length;
      // Leaving the loop destroys the stream: the rest is never downloaded.
      if (size >= WEBHOOK_RESPONSE_KEEP_BYTES) break;
    }
  } catch {
    // An answer cut off while being read still has its status; keep what arrived.
  }
  return Buffer.concat(chunks).subarray(0, WEBHOOK_RESPONSE_KEEP_BYTES).toString('utf8');
}

const REASONS: Record<string, string> = {
  ECONNREFUSED: 'the connection was refused',
  ECONNRESET: 'the connection was reset',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  UND_ERR_SOCKET: 'the connection was closed',
};

function unreachable(error: unknown, timeoutMs: number): string {
  const { name, code, message } = error as { name?: string; code?: string; message?: string };
  const timedOut = name === 'TimeoutError' || name === 'AbortError' || /TIMEOUT/.test(code ?? '');
  const reason = timedOut
    ? `no answer within ${timeoutMs} ms`
    : ((code && REASONS[code]) ?? message ?? 'the request failed');
  return ForwardingMessages.webhookUnreachable(reason);
}

/**
 * POSTs one webhook. The target is checked first and the connection goes only to the checked
 * addresses; redirects are not followed (a 3xx is the answer). Never throws: a refused or
 * unreachable target is statusCode null and the reason.
 */
export async function postWebhook(post: WebhookPost): Promise<WebhookResponse> {
  const started = performance.now();
  const durationMs = () => Math.round(performance.now() - started);
  let addresses: Awaited<ReturnType<typeof checkWebhookUrl>>;
  try {
    addresses = await checkWebhookUrl(post.url, { allowPrivate: post.allowPrivate });
  } catch (error) {
    return { statusCode: null, body: (error as Error).message, durationMs: durationMs() };
  }
  const agent = new Agent({
    connect: { lookup: pinnedLookup(addresses), timeout: post.timeoutMs },
    headersTimeout: post.timeoutMs,
    bodyTimeout: post.timeoutMs,
  });
  try {
    const answer = await request(post.url, {
      method: 'POST',
      headers: post.headers,
      body: post.body,
      dispatcher: agent,
      signal: AbortSignal.timeout(post.timeoutMs),
    });
    const body = await readStart(answer.body);
    const retryAfterSeconds = parseRetryAfter(answer.headers['retry-after']);
    return {
      statusCode: answer.statusCode,
      body,
      durationMs: durationMs(),
      ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
    };
  } catch (error) {
    return { statusCode: null, body: unreachable(error, post.timeoutMs), durationMs: durationMs() };
  } finally {
    await agent.destroy().catch(() => {});
  }
}
