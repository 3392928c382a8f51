import { ACCOUNT_HEADER, endpoints, type HttpMethod } from '@ebs/contract';
import { takeEarlyRequest } from './early-requests';
import { sessionLink } from './session-link';

export type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  query?: Record<string, QueryValue>;
  body?: unknown;
  /** The account named in `ebs-account-id`; the current account when absent, '' sends it empty. */
  accountId?: string;
  /** Extra request headers, e.g. an `idempotency-key`; they cannot replace the ones set here. */
  headers?: Record<string, string>;
  /** A file's answer (a CSV): a successful body is kept as its text, not read as JSON. */
  raw?: boolean;
}

export interface RawResponse {
  ok: boolean;
  status: number;
  statusText: string;
  body: unknown;
  /** The identity token the request was sent with, to tell a stale 401 from a fresh one. */
  sentToken: string | null;
}

export function buildUrl(path: string, query: Record<string, QueryValue> = {}) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.append(key, String(value));
  }
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

function parseBody(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** One HTTP exchange, with no wrapper rule and no error handling: the client adds those. */
export async function send(method: HttpMethod, path: string, options: RequestOptions = {}): Promise<RawResponse> {
  const session = sessionLink();
  const headers: Record<string, string> = { ...options.headers, accept: 'application/json' };
  // The refresh call is authenticated by its cookie; an expired bearer would only confuse it.
  const sentToken = path === endpoints.identity.refresh.path ? null : session.idToken();
  if (sentToken) headers.authorization = `Bearer ${sentToken}`;
  if (path.startsWith('/api/')) headers[ACCOUNT_HEADER] = options.accountId ?? session.currentAccountId() ?? '';
  if (options.body !== undefined) headers['content-type'] = 'application/json';

  // A call the page started before this code ran (public/boot.js): only one that sends no more than it did.
  const plain = !sentToken && !options.query && options.body === undefined && !options.headers;
  const response = await ((plain ? takeEarlyRequest(method, path) : undefined) ??
    fetch(buildUrl(path, options.query), {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      credentials: 'same-origin',
    }));
  return {
    ok: response.ok,
    status: response.status,
    statusText: response.statusText,
    body: options.raw && response.ok ? await response.text() : parseBody(await response.text()),
    sentToken,
  };
}
