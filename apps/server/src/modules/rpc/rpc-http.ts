import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream';
import {
  API_KEY_ID_PARAM,
  API_KEY_PARAM,
  endpoints,
  findRpcNetwork,
  RPC_BASE_PATH,
  RpcErrorCodes,
  RpcMessages,
} from '@ebs/contract';
import proxyAddr from '@fastify/proxy-addr';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { KeyRequest } from '../keys/index.ts';
import type { GatewayAnswer } from './network-gateway.ts';
import type { RpcGateway } from './rpc.service.ts';
import { RpcRefusal } from './rpc-request.ts';

const PREFIX = `${RPC_BASE_PATH}/`;

/** Dapps call the gateway from browsers: any origin may, with the key in the query or headers. */
const CORS = { 'access-control-allow-origin': '*', 'access-control-expose-headers': 'x-cache' } as const;

/** A browser's preflight before a cross-origin POST with JSON or key headers. */
const PREFLIGHT = {
  ...CORS,
  'access-control-allow-methods': 'POST, OPTIONS',
  'access-control-allow-headers': `content-type, authorization, ${API_KEY_ID_PARAM}, ${API_KEY_PARAM}`,
  'access-control-max-age': '86400',
} as const;

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * The networks' status and the prices (GET /api/v1.0/rpc/status, /pricing): console calls under the
 * base path, not gateway calls.
 */
const CONSOLE_PATHS = [endpoints.rpc.status.path, endpoints.rpc.pricing.path];

const isPath = (url: string, path: string) =>
  url.startsWith(path) && (url.length === path.length || url[path.length] === '?');

/**
 * The gateway's requests: anything under the RPC base path (a POST, a preflight, or another method
 * it answers with how to call it) but a GET of the networks' status or the prices. A WebSocket
 * upgrade never comes here: the server hands it over apart.
 */
export const isGatewayRequest = (request: IncomingMessage): boolean => {
  const url = request.url ?? '';
  if (!url.startsWith(PREFIX)) return false;
  return !(request.method === 'GET' && CONSOLE_PATHS.some((path) => isPath(url, path)));
};

/** A path part as the router decoded it, or as sent when it does not decode. */
function decoded(part: string): string {
  if (!part.includes('%')) return part;
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/**
 * A request URL's path after `prefix`, without trailing slashes: decoded whole, as the router
 * decodes it (a request it handed over may spell the base escaped).
 */
export function decodedPath(url: string, prefix: string): string {
  const queryAt = url.indexOf('?');
  const pathname = decoded(queryAt < 0 ? url : url.slice(0, queryAt));
  return (pathname.startsWith(prefix) ? pathname.slice(prefix.length) : pathname).replace(/\/+$/, '');
}

/** A body still arriving, and what to do once its deadline has passed. */
interface Arriving {
  at: number;
  expire: () => void;
}

/**
 * The deadlines of the bodies still arriving, checked by one timer for them all (a timer of its own
 * per request costs more than the rest of the read): a body is refused within a quarter of its
 * allowed time (at most a second) past its deadline.
 */
class BodyDeadlines {
  private readonly arriving = new Set<Arriving>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly everyMs: number) {}

  add(body: Arriving): void {
    this.arriving.add(body);
    if (this.timer) return;
    this.timer = setInterval(() => this.sweep(), this.everyMs);
    this.timer.unref();
  }

  delete(body: Arriving): void {
    this.arriving.delete(body);
  }

  private sweep(): void {
    const now = performance.now();
    for (const body of this.arriving) {
      if (body.at > now) continue;
      this.arriving.delete(body);
      body.expire();
    }
    if (this.arriving.size > 0) return;
    clearInterval(this.timer);
    this.timer = undefined;
  }
}

/**
 * The body as text, refused past `limit` bytes before any more of it is kept, or when it has not
 * all arrived within `deadlineMs` (a caller dripping one in holds no memory for longer). A refusal
 * closes the connection once answered, so the rest of the body is never read. A body that has
 * already arrived whole (most do, with their headers) is taken at once, without waiting a turn.
 */
function readBody(
  request: IncomingMessage,
  limit: number,
  deadlineMs: number,
  deadlines: BodyDeadlines,
): string | Promise<string> {
  const refusal = (status: number, message: string) =>
    new RpcRefusal(status, RpcErrorCodes.invalidRequest, message, null, { connection: 'close' });
  const tooLarge = () => refusal(413, RpcMessages.tooLarge(limit));
  if (Number(request.headers['content-length']) > limit) return Promise.reject(tooLarge());
  if (request.destroyed) return Promise.reject(new Error('the caller went away'));
  const length = request.headers['content-length'];
  if (length !== undefined && request.readableLength === Number(length) && !request.readableFlowing) {
    const whole = request.read() as Buffer | null;
    // The end of the message, still to come, is taken as it arrives.
    request.resume();
    return whole === null ? '' : whole.toString('utf8');
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const arriving: Arriving = {
      at: performance.now() + deadlineMs,
      expire: () => refuse(refusal(408, RpcMessages.bodyTooSlow(deadlineMs / 1000))),
    };
    const settle = () => {
      settled = true;
      deadlines.delete(arriving);
    };
    const refuse = (error: Error) => {
      if (settled) return;
      settle();
      chunks.length = 0;
      reject(error);
    };
    deadlines.add(arriving);
    request.on('data', (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
      else refuse(tooLarge());
    });
    request.on('end', () => {
      if (settled) return;
      settle();
      // Most bodies arrive in one piece: no copy then.
      const whole = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size);
      resolve(whole.toString('utf8'));
    });
    request.on('error', refuse);
    // A caller gone before the end (once the body is read, a no-op: no error is made for it).
    request.on('close', () => {
      if (!settled) refuse(new Error('the caller went away'));
    });
  });
}

/**
 * POST /api/v1.0/rpc/{network}: the JSON-RPC gateway, served on the raw node:http request before
 * the console's router and hooks (the hot path: routing, schemas and hooks cost more per request
 * than the gateway's own checks). It authorizes the caller, reads the body and writes the answer of
 * the pipeline (pipeline.ts), which it shares with WebSocket. Errors are JSON-RPC error objects, not
 * the console's wrapper, so any Ethereum client reads them.
 */
export class RpcHttp {
  private readonly trust: (address: string, hop: number) => boolean;
  private readonly deadlines: BodyDeadlines;

  constructor(
    private readonly rpc: RpcGateway,
    private readonly config: Config,
    private readonly log: FastifyBaseLogger,
  ) {
    // The client address as the console reads it: the nearest TRUST_PROXY hops are trusted.
    this.trust = (_address, hop) => hop < config.TRUST_PROXY;
    this.deadlines = new BodyDeadlines(Math.min(1000, Math.ceil(config.RPC_TIMEOUT_MS / 4)));
  }

  /** Answers a request for which isGatewayRequest holds. */
  handle(request: IncomingMessage, response: ServerResponse): void {
    if (request.method === 'OPTIONS') {
      request.resume();
      response.writeHead(204, PREFLIGHT).end();
      return;
    }
    if (request.method !== 'POST') {
      // A browser's GET of an RPC URL, or a client set to the wrong method: told what to send.
      request.resume();
      const refusal = new RpcRefusal(405, RpcErrorCodes.invalidRequest, RpcMessages.usePost);
      writeJson(response, refusal.httpStatus, refusal.body(), { allow: 'POST, OPTIONS' });
      return;
    }
    this.serve(request, response).catch((error: unknown) => this.fail(request, response, error));
  }

  private async serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = request.url ?? '';
    const queryAt = url.indexOf('?');
    const path = decodedPath(url, PREFIX);
    const network = findRpcNetwork(path);
    if (!network) throw new RpcRefusal(404, RpcErrorCodes.notFound, RpcMessages.unknownNetwork(path));
    const query = new URLSearchParams(queryAt < 0 ? '' : url.slice(queryAt + 1));
    const shown = keyRequestOf(request, query, this.trust);
    const caller = await this.rpc.authorize(credential(query, request.headers, API_KEY_ID_PARAM), shown);
    const answer = await this.rpc.pipeline.run({
      caller,
      network,
      shown,
      // Read once the caller is known: a stranger's body is never held.
      body: readBody(request, this.config.RPC_MAX_BODY_BYTES, this.config.RPC_TIMEOUT_MS, this.deadlines),
      mayStream: true,
      gone: () => response.destroyed || request.socket.destroyed,
    });
    writeAnswer(response, answer, this.config.RPC_TIMEOUT_MS);
  }

  private fail(request: IncomingMessage, response: ServerResponse, error: unknown): void {
    if (response.headersSent) {
      // A streamed answer broke off: the caller sees the connection end.
      response.destroy();
      return;
    }
    if (error instanceof RpcRefusal) {
      writeJson(response, error.httpStatus, error.body(), error.headers);
      return;
    }
    if (request.destroyed || response.destroyed || (error as { code?: string }).code === 'UND_ERR_ABORTED') {
      // The caller hung up: nothing to answer, nothing wrong on our side.
      this.log.debug({ err: error }, 'RPC caller went away');
      return;
    }
    // The hot path logs only its failures, and never its URL, which carries the key.
    this.log.error({ err: error }, 'RPC request failed');
    const refusal = new RpcRefusal(500, RpcErrorCodes.upstream, 'Internal error, please try again later.');
    writeJson(response, refusal.httpStatus, refusal.body());
  }
}

/** What a request shows of itself to its key's checks: the secret, a JWT, its origin and client address. */
export function keyRequestOf(
  request: IncomingMessage,
  query: URLSearchParams,
  trust: (address: string, hop: number) => boolean,
): KeyRequest {
  const headers = request.headers;
  return {
    key: credential(query, headers, API_KEY_PARAM),
    authorization: headers.authorization,
    origin: headers.origin,
    referer: headers.referer,
    ip: clientAddress(request, trust),
  };
}

/** The client address as TRUST_PROXY defines it: the socket's own when no proxy is trusted (no header read). */
function clientAddress(request: IncomingMessage, trust: (address: string, hop: number) => boolean): string {
  if (!trust('', 0)) return request.socket.remoteAddress ?? '';
  return proxyAddr(request, trust);
}

/** A key travels in the query (as the RPC page shows it) or, under the same names, as headers. */
export function credential(
  query: URLSearchParams,
  headers: IncomingMessage['headers'],
  name: string,
): string | undefined {
  const fromQuery = query.getAll(name);
  if (fromQuery.length === 1 && fromQuery[0]) return fromQuery[0];
  const fromHeader = headers[name];
  return typeof fromHeader === 'string' && fromHeader ? fromHeader : undefined;
}

function writeJson(response: ServerResponse, status: number, value: unknown, extra: Record<string, string> = {}): void {
  const body = JSON.stringify(value);
  response
    .writeHead(status, {
      ...CORS,
      ...extra,
      'content-type': JSON_TYPE,
      'content-length': Buffer.byteLength(body),
    })
    .end(body);
}

/**
 * The headers of an answer, written out as one literal (a spread of shared headers per request costs
 * the hot path more than its checks): the CORS ones, the type, the length, and X-Cache.
 */
const answerHeaders = (
  contentType: string,
  length: number | string | undefined,
  cache: string | undefined,
): Record<string, string | number> => {
  const headers: Record<string, string | number> = {
    'access-control-allow-origin': '*',
    'access-control-expose-headers': 'x-cache',
    'content-type': contentType,
  };
  if (length !== undefined) headers['content-length'] = length;
  if (cache !== undefined) headers['x-cache'] = cache;
  return headers;
};

/**
 * An answer held whole goes out with its headers in one write. One held in the process's answer
 * memory stays counted there until it has left, and is dropped with its connection when the caller
 * has not taken it within `stallMs`. A large node answer is streamed as the node sends it, and
 * dropped (with the node's connection) once nothing has moved for `stallMs`: a caller that stops
 * reading must not hold a connection to the node.
 */
function writeAnswer(response: ServerResponse, answer: GatewayAnswer, stallMs: number): void {
  if ('body' in answer) {
    const headers = answerHeaders(answer.contentType, Buffer.byteLength(answer.body), answer.cache);
    const { release } = answer;
    if (release) {
      const stalled = setTimeout(() => response.destroy(), stallMs);
      response.once('close', () => {
        clearTimeout(stalled);
        release();
      });
    }
    response.writeHead(answer.status, headers).end(answer.body);
    return;
  }
  const { stream } = answer;
  try {
    response.writeHead(answer.status, answerHeaders(answer.contentType, answer.length, answer.cache));
  } catch (error) {
    // A node's answer still streaming must not keep its connection.
    stream.destroy();
    throw error;
  }
  const stalled = setTimeout(() => stream.destroy(new Error('the answer stalled')), stallMs);
  stream.on('data', () => stalled.refresh());
  pipeline(stream, response, (error) => {
    clearTimeout(stalled);
    if (error) response.destroy();
  });
}
