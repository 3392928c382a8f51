import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the proxy passed it on: to which backend (its index), and what came back. */
export interface Served {
  backend: number;
  method: string;
  /** The path without its query (a gateway URL carries the API key there). */
  path: string;
  /** The backend's status, or 502 when it could not be reached. */
  status: number;
}

export interface RoundRobin {
  /** http://127.0.0.1:PORT */
  url: string;
  /** Every request in the order it arrived, with the backend that served it. */
  readonly served: Served[];
  /** Requests per backend, by index. */
  readonly counts: number[];
  close(): Promise<void>;
}

/** Headers of one connection, not of the request: a proxy never passes them on (RFC 9110 §7.6.1). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

function endToEnd(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  const kept: http.OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) if (!HOP_BY_HOP.has(name)) kept[name] = value;
  return kept;
}

/**
 * A local round-robin load balancer in front of several server processes: each request goes to
 * the next backend in turn with its method, headers and body, and the answer comes back as the
 * backend sent it. Connections are kept alive on both sides. Like a real balancer it appends the
 * client's address to X-Forwarded-For (the backends read it with TRUST_PROXY=1); `forwardedFor`
 * reports one address of the caller's choosing for every client instead, so that a test's
 * per-address limits are its own.
 */
export async function startRoundRobin(
  backends: string[],
  options: { forwardedFor?: string; log?: boolean } = {},
): Promise<RoundRobin> {
  if (backends.length === 0) throw new Error('a round-robin needs at least one backend');
  const targets = backends.map((b) => new URL(b));
  const agent = new http.Agent({ keepAlive: true });
  const served: Served[] = [];
  const counts = backends.map(() => 0);
  const log = options.log ?? true;
  let next = 0;

  const server = http.createServer({ keepAliveTimeout: 60_000 }, (request, response) => {
    const backend = next;
    next = (next + 1) % targets.length;
    counts[backend] = (counts[backend] ?? 0) + 1;
    const entry: Served = {
      backend,
      method: request.method ?? 'GET',
      path: (request.url ?? '/').split('?')[0] ?? '/',
      status: 0,
    };
    if (log) served.push(entry);
    const target = targets[backend] as URL;
    const client = options.forwardedFor ?? request.socket.remoteAddress ?? '';
    const earlier = request.headers['x-forwarded-for'];
    const headers = endToEnd(request.headers);
    headers['x-forwarded-for'] = earlier ? `${earlier}, ${client}` : client;
    const upstream = http.request(
      { host: target.hostname, port: target.port, method: request.method, path: request.url, headers, agent },
      (answer) => {
        entry.status = answer.statusCode ?? 0;
        response.writeHead(answer.statusCode ?? 502, endToEnd(answer.headers));
        answer.pipe(response);
      },
    );
    upstream.on('error', () => {
      entry.status = 502;
      if (response.headersSent) response.destroy();
      else response.writeHead(502, { 'content-type': 'text/plain' }).end('backend unreachable');
    });
    request.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    served,
    counts,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      agent.destroy();
      await closed;
    },
  };
}
