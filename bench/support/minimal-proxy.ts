// The gateway's second reference: about the least a JSON-RPC proxy in Node.js can do per request,
// so that "gateway ÷ minimal proxy" says how far the gateway is from the runtime's own ceiling
// (nginx says how far from a proxy written in C). node:http, the key checked from the query string
// against one known key, the body passed to a kept-alive undici Pool through dispatch() and the
// answer streamed back; no metering, no limits, no JSON parsing.
// Run as a process of its own: `node --import tsx bench/support/minimal-proxy.ts PORT UPSTREAM KEY_ID KEY [parse]`.
// With `parse` it also reads each body as JSON (JSON.parse) and refuses one that is not a JSON-RPC
// request object or a batch of them: the least any gateway that screens or meters its calls must add
// per request, so that "parsing proxy ÷ minimal proxy" is the floor such a gateway starts from.
// With KEY_ID `-` it checks no key and counts the JSON-RPC calls it passes on (GET /calls answers the
// count): the cache suite puts it between the gateway and the node to count what reaches the node.
import http from 'node:http';
import { Pool } from 'undici';

/** The number of calls in a JSON-RPC body (a request object or a non-empty batch of them), 0 for anything else. */
function readCalls(text: string): number {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 0;
  }
  const calls = Array.isArray(value) ? value : [value];
  for (const call of calls) {
    if (typeof call !== 'object' || call === null || typeof (call as { method?: unknown }).method !== 'string')
      return 0;
  }
  return calls.length;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [port, upstream, keyId, key, mode] = process.argv.slice(2) as [string, string, string, string, string?];
  const parses = mode === 'parse';
  const target = new URL(upstream);
  const pool = new Pool(target.origin, { connections: 256, keepAliveTimeout: 30_000 });
  const refuse = (response: http.ServerResponse, status: number) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end('{"jsonrpc":"2.0","id":null,"error":{"code":-32001,"message":"wrong key"}}');
  };
  const counting = keyId === '-';
  let calls = 0;
  const server = http.createServer({ keepAliveTimeout: 600_000 }, (request, response) => {
    if (counting && request.method === 'GET') {
      response.end(String(calls));
      return;
    }
    const query = new URLSearchParams((request.url ?? '').split('?')[1] ?? '');
    if (!counting && (query.get('x-api-key-id') !== keyId || query.get('x-api-key') !== key)) {
      request.resume();
      refuse(response, 401);
      return;
    }
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      // One "method" key per call, a batch's included.
      if (counting) calls += Buffer.concat(chunks).toString().split('"method"').length - 1;
      if (parses && readCalls(Buffer.concat(chunks).toString()) === 0) {
        refuse(response, 400);
        return;
      }
      pool.dispatch(
        {
          path: `${target.pathname}${target.search}`,
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: Buffer.concat(chunks),
        },
        {
          onConnect() {},
          onHeaders(statusCode, rawHeaders) {
            let length: string | undefined;
            for (let i = 0; i < rawHeaders.length; i += 2) {
              if (String(rawHeaders[i]).toLowerCase() === 'content-length') length = String(rawHeaders[i + 1]);
            }
            response.writeHead(
              statusCode,
              length === undefined
                ? { 'content-type': 'application/json' }
                : { 'content-type': 'application/json', 'content-length': length },
            );
            return true;
          },
          onData(chunk) {
            response.write(chunk);
            return true;
          },
          onComplete() {
            response.end();
          },
          onError() {
            if (response.headersSent) response.destroy();
            else refuse(response, 502);
          },
        },
      );
    });
  });
  server.listen(Number(port), '127.0.0.1', () => process.stdout.write('ready\n'));
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}
