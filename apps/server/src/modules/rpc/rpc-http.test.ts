import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { RpcErrorCodes, RpcMessages } from '@ebs/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { pglite } from '../../testing/databases.ts';
import { accountWithKey, type KeyHolder, rpcCall } from '../../testing/keys.ts';
import { until } from '../../testing/poll.ts';
import { serverFor } from '../../testing/server.ts';

const NETWORK = 'ethereum/mainnet';
const BODY_LIMIT = 4096;
/** Answers this large are streamed from the node to the caller, not read whole first. */
const LARGE = 300 * 1024;

const answerOf = (id: unknown, result: unknown) => JSON.stringify({ jsonrpc: '2.0', id, result });
const largeAnswer = (id: unknown) => answerOf(id, `0x${'ab'.repeat(LARGE / 2)}`);

/**
 * A node whose txpool_content answers (a method the gateway neither caches nor merges) are
 * large: with their length, chunked without one, or stalled halfway. It records whether the
 * stalled answer's connection was dropped.
 */
const stalled = { dropped: false };
const endless = { dropped: false };
const node = http.createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const call = JSON.parse(Buffer.concat(chunks).toString()) as { id: unknown; method: string; params?: string[] };
    const how = call.method === 'txpool_content' ? call.params?.[0] : undefined;
    if (how === 'endless') {
      // As much as the gateway reads, until it drops the connection.
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"jsonrpc":"2.0","id":7,"result":"0x');
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      const more = () => {
        while (!response.destroyed && response.write(chunk)) {
          // until the socket's buffer is full
        }
      };
      response.on('drain', more);
      response.on('close', () => {
        endless.dropped = true;
      });
      more();
      return;
    }
    const text = how ? largeAnswer(call.id) : answerOf(call.id, '0x1');
    if (how === 'chunked' || how === 'stalls') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write(text.slice(0, LARGE / 3));
      if (how === 'stalls') {
        response.on('close', () => {
          stalled.dropped = !response.writableFinished;
        });
        return;
      }
      setImmediate(() => response.end(text.slice(LARGE / 3)));
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    response.end(text);
  });
});
await new Promise<void>((resolve) => node.listen(0, '127.0.0.1', resolve));
afterAll(() => {
  node.closeAllConnections();
  return new Promise<void>((resolve) => node.close(() => resolve()));
});

const largeCall = (how: string) => ({ jsonrpc: '2.0', id: 7, method: 'txpool_content', params: [how] });

interface RawAnswer {
  status: number;
  body: unknown;
  /** Whether the request went out on a kept-alive connection of the agent. */
  reused: boolean;
  connection: string | undefined;
}

/**
 * A POST over node:http, with the connection details fetch hides; `partly` sends only the body's
 * first bytes, `inPieces` sends the rest a moment after them.
 */
function rawPost(
  url: URL,
  body: string,
  options: { agent?: http.Agent; partly?: boolean; inPieces?: boolean } = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const headers = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };
    const request = http.request(url, { method: 'POST', headers, agent: options.agent }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () =>
        resolve({
          status: answer.statusCode ?? 0,
          body: JSON.parse(Buffer.concat(chunks).toString()),
          reused: request.reusedSocket,
          connection: answer.headers.connection,
        }),
      );
    });
    request.on('error', reject);
    if (options.partly) request.write(body.slice(0, 10));
    else if (options.inPieces) {
      request.write(body.slice(0, 10));
      setTimeout(() => request.end(body.slice(10)), 20);
    } else request.end(body);
  });
}

describe('the gateway served before the console’s router', () => {
  const server = serverFor(pglite, {
    RPC_UPSTREAMS: JSON.stringify({ [NETWORK]: [`http://127.0.0.1:${(node.address() as AddressInfo).port}`] }),
    RPC_MAX_BODY_BYTES: String(BODY_LIMIT),
    // How long a streamed answer may stand still before it is dropped (and the node's wait for a node).
    RPC_TIMEOUT_MS: '1000',
  });
  let holder: KeyHolder;
  const ready = async () => {
    holder ??= await accountWithKey(server().url, server().db);
    return holder.url(NETWORK);
  };

  it('passes a large answer on byte for byte as the node sends it, with its length or chunked', async () => {
    const url = await ready();
    const sized = await fetch(url, { method: 'POST', body: JSON.stringify(largeCall('sized')) });
    expect(sized.headers.get('content-length')).toBe(String(largeAnswer(7).length));
    expect({ status: sized.status, body: await sized.text() }).toEqual({ status: 200, body: largeAnswer(7) });
    const chunked = await fetch(url, { method: 'POST', body: JSON.stringify(largeCall('chunked')) });
    expect(chunked.headers.get('x-cache')).toBe('MISS');
    expect({ status: chunked.status, body: await chunked.text() }).toEqual({ status: 200, body: largeAnswer(7) });
    expect(chunked.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('drops the node’s answer when the caller hangs up halfway, and serves the next call', async () => {
    const url = new URL(await ready());
    await new Promise<void>((resolve, reject) => {
      const request = http.request(
        url,
        { method: 'POST', headers: { 'content-type': 'application/json' } },
        (answer) => {
          answer.once('data', () => {
            request.destroy();
            resolve();
          });
        },
      );
      request.on('error', (error) => {
        if (!request.destroyed) reject(error);
      });
      request.end(JSON.stringify(largeCall('stalls')));
    });
    await until('the node’s connection dropped', async () => stalled.dropped);
    expect((await rpcCall(url.href, { jsonrpc: '2.0', id: 2, method: 'txpool_content', params: [] })).body).toEqual({
      jsonrpc: '2.0',
      id: 2,
      result: '0x1',
    });
  });

  it('drops a streamed answer, and its node connection, when the caller stops reading it', async () => {
    const url = new URL(await ready());
    const request = http.request(url, { method: 'POST', headers: { 'content-type': 'application/json' } }, (answer) =>
      answer.pause(),
    );
    request.on('error', () => {});
    request.end(JSON.stringify(largeCall('endless')));
    try {
      await until('the node’s connection dropped once the answer stood still', async () => endless.dropped);
    } finally {
      request.destroy();
    }
    expect((await rpcCall(url.href, { jsonrpc: '2.0', id: 5, method: 'txpool_content', params: [] })).body).toEqual({
      jsonrpc: '2.0',
      id: 5,
      result: '0x1',
    });
  });

  it('reads a body that came with its headers and one that arrives in pieces alike, on one kept-alive connection', async () => {
    const url = new URL(await ready());
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const answers: Array<Omit<RawAnswer, 'connection'>> = [];
      for (const [id, inPieces] of [
        [1, false],
        [2, true],
        [3, false],
      ] as const) {
        const body = JSON.stringify({ jsonrpc: '2.0', id, method: 'txpool_content', params: [] });
        const { status, body: answer, reused } = await rawPost(url, body, { agent, inPieces });
        answers.push({ status, body: answer, reused });
      }
      expect(answers).toEqual([
        { status: 200, body: { jsonrpc: '2.0', id: 1, result: '0x1' }, reused: false },
        { status: 200, body: { jsonrpc: '2.0', id: 2, result: '0x1' }, reused: true },
        { status: 200, body: { jsonrpc: '2.0', id: 3, result: '0x1' }, reused: true },
      ]);
      const empty = await rawPost(url, '', { agent });
      expect({ status: empty.status, body: empty.body }).toEqual({
        status: 400,
        body: { jsonrpc: '2.0', id: null, error: { code: RpcErrorCodes.parseError, message: RpcMessages.notJson } },
      });
    } finally {
      agent.destroy();
    }
  });

  it('answers a GET (or any method but POST) of an RPC URL with a JSON-RPC error that says to POST', async () => {
    const url = await ready();
    const answers = [];
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const answer = await fetch(url, { method });
      answers.push({ method, status: answer.status, allow: answer.headers.get('allow'), body: await answer.json() });
    }
    const refused = {
      jsonrpc: '2.0',
      id: null,
      error: { code: RpcErrorCodes.invalidRequest, message: RpcMessages.usePost },
    };
    expect(answers).toEqual(
      ['GET', 'PUT', 'DELETE'].map((method) => ({ method, status: 405, allow: 'POST, OPTIONS', body: refused })),
    );
    // Also without a key or on an unknown network: nothing is read before the method.
    const bare = await fetch(`${server().url}/api/v1.0/rpc/nowhere`);
    expect({ status: bare.status, body: await bare.json() }).toEqual({ status: 405, body: refused });
  });

  it('refuses a body that does not all arrive in time with 408, and closes that connection', async () => {
    const url = new URL(await ready());
    const body = JSON.stringify({ jsonrpc: '2.0', id: 6, method: 'txpool_content', params: [] });
    const answer = await rawPost(url, body, { partly: true }); // the rest never comes
    expect({ status: answer.status, body: answer.body, connection: answer.connection }).toEqual({
      status: 408,
      connection: 'close',
      body: {
        jsonrpc: '2.0',
        id: null,
        error: { code: RpcErrorCodes.invalidRequest, message: RpcMessages.bodyTooSlow(1) },
      },
    });
  });

  it('refuses a body over the limit with 413, closes that connection, and serves the next call on another', async () => {
    const url = new URL(await ready());
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const big = JSON.stringify({ ...largeCall('sized'), params: ['x'.repeat(BODY_LIMIT)] });
      const tooLarge = await rawPost(url, big, { agent });
      expect({ status: tooLarge.status, body: tooLarge.body, connection: tooLarge.connection }).toEqual({
        status: 413,
        connection: 'close',
        body: {
          jsonrpc: '2.0',
          id: null,
          error: { code: RpcErrorCodes.invalidRequest, message: RpcMessages.tooLarge(BODY_LIMIT) },
        },
      });
      const next = await rawPost(url, JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'txpool_content', params: [] }), {
        agent,
      });
      expect({ status: next.status, body: next.body, reused: next.reused }).toEqual({
        status: 200,
        body: { jsonrpc: '2.0', id: 3, result: '0x1' },
        reused: false,
      });
    } finally {
      agent.destroy();
    }
  });

  it('answers a request handed to it by the router (inject) as it answers one on the socket', async () => {
    const url = new URL(await ready());
    const injected = await server().app.inject({
      method: 'POST',
      url: `${url.pathname}${url.search}`,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'txpool_content', params: [] }),
    });
    expect({ status: injected.statusCode, body: injected.json(), cache: injected.headers['x-cache'] }).toEqual({
      status: 200,
      body: { jsonrpc: '2.0', id: 4, result: '0x1' },
      cache: 'MISS',
    });
    const unknown = await server().app.inject({ method: 'POST', url: '/api/v1.0/rpc/nowhere/net', payload: '{}' });
    expect({ status: unknown.statusCode, body: unknown.json() }).toEqual({
      status: 404,
      body: {
        jsonrpc: '2.0',
        id: null,
        error: { code: RpcErrorCodes.notFound, message: RpcMessages.unknownNetwork('nowhere/net') },
      },
    });
  });
});
