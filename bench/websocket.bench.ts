// `npm run bench` websocket suite: newHeads notifications to many clients through one server process,
// against a client connected straight to the node, and calls over WebSocket against the same calls
// over HTTP, in the same run. docs/performance.md explains the figures.
import { rpcWebSocketUrl } from '@ebs/contract';
import WebSocket from 'ws';
import { nodeCall } from '../apps/server/src/modules/rpc/anvil-nodes.ts';
import { cpuPinning, pin } from './support/cpu-pinning.ts';
import { type Figure, report } from './support/figures.ts';
import { failures, measure, percentile, RPC_BODY } from './support/load.ts';
import { admin, anvil, type Cleanup, customer, server, tempDir } from './support/stack.ts';
import { runSuite } from './support/suite.ts';

const SUITE = 'websocket';
const NETWORK = 'ethereum/mainnet';
/** Clients subscribed to newHeads through the gateway (BENCH_WS_CLIENTS overrides). */
const CLIENTS = Number(process.env.BENCH_WS_CLIENTS ?? 1000);
const BLOCKS = 30;
/** Blocks sent before those measured: the first notifications run code V8 has not optimised yet. */
const WARM_UP_BLOCKS = 5;
const BLOCK_EVERY_MS = 200;
/** Calls: this many connections, one call in flight on each, as the HTTP load keeps. */
const CONNECTIONS = 64;
const CALL_SECONDS = 5;
const ROUNDS = 3;

const log = (line: string) => process.stderr.write(`${line}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const NUMBER = /"number":"(0x[0-9a-fA-F]+)"/;

/** A socket that subscribes to newHeads and notes when each block arrives (performance.now()). */
async function watcher(url: string, arrivals: (block: number, at: number) => void): Promise<WebSocket> {
  const socket = new WebSocket(url, { perMessageDeflate: false });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
    socket.once('close', (code, reason) => reject(new Error(`closed ${code} ${reason}`)));
  });
  let subscribed: () => void = () => {};
  const answered = new Promise<void>((resolve) => {
    subscribed = resolve;
  });
  socket.on('message', (data) => {
    const at = performance.now();
    const text = String(data);
    if (!text.includes('eth_subscription')) {
      subscribed();
      return;
    }
    const number = NUMBER.exec(text)?.[1];
    if (number) arrivals(Number(number), at);
  });
  socket.send('{"jsonrpc":"2.0","id":1,"method":"eth_subscribe","params":["newHeads"]}');
  await answered;
  return socket;
}

/** Calls over WebSocket for `seconds`: `connections` sockets, each sending its next call once answered. */
async function wsCalls(
  url: string,
  connections: number,
  seconds: number,
): Promise<{ perSecond: number; failed: number }> {
  const sockets = await Promise.all(
    Array.from({ length: connections }, async () => {
      const socket = new WebSocket(url, { perMessageDeflate: false });
      await new Promise<void>((resolve, reject) => {
        socket.once('open', () => resolve());
        socket.once('error', reject);
      });
      return socket;
    }),
  );
  let answers = 0;
  let failed = 0;
  let running = true;
  const started = performance.now();
  for (const socket of sockets) {
    socket.on('message', (data) => {
      if (String(data).includes('"result"')) answers += 1;
      else failed += 1;
      if (running) socket.send(RPC_BODY);
    });
    socket.send(RPC_BODY);
  }
  await sleep(seconds * 1000);
  running = false;
  const elapsed = (performance.now() - started) / 1000;
  for (const socket of sockets) socket.close();
  return { perSecond: answers / elapsed, failed };
}

/**
 * CLIENTS sockets on `url` and one on `referenceUrl` subscribe to newHeads; WARM_UP_BLOCKS then
 * BLOCKS blocks are made, one every BLOCK_EVERY_MS; answers each client's delay over the reference
 * client's (the measured blocks only), and the notifications missing or repeated.
 */
async function fanOut(url: string, referenceUrl: string, nodeUrl: string) {
  const reference = new Map<number, number>();
  const arrivals = new Map<number, number[]>();
  const sockets = [await watcher(referenceUrl, (block, at) => reference.set(block, at))];
  for (let i = 0; i < CLIENTS; i += 50) {
    const batch = Array.from({ length: Math.min(50, CLIENTS - i) }, () =>
      watcher(url, (block, at) => {
        const seen = arrivals.get(block);
        if (seen) seen.push(at);
        else arrivals.set(block, [at]);
      }),
    );
    sockets.push(...(await Promise.all(batch)));
  }
  const first = Number(await nodeCall(nodeUrl, 'eth_blockNumber')) + 1 + WARM_UP_BLOCKS;
  for (let i = 0; i < WARM_UP_BLOCKS + BLOCKS; i++) {
    await nodeCall(nodeUrl, 'evm_mine');
    await sleep(BLOCK_EVERY_MS);
  }
  const last = first + BLOCKS - 1;
  for (let i = 0; (arrivals.get(last)?.length ?? 0) < CLIENTS && i < 100; i++) await sleep(100);
  const delays: number[] = [];
  let missing = 0;
  for (let block = first; block <= last; block++) {
    const at = reference.get(block);
    const arrived = arrivals.get(block) ?? [];
    missing += Math.abs(CLIENTS - arrived.length);
    if (at !== undefined) for (const time of arrived) delays.push(time - at);
  }
  for (const socket of sockets) socket.close();
  const sorted = Float64Array.from(delays).sort();
  return { p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), missing };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

async function main(cleanup: Cleanup): Promise<number> {
  const pinning = cpuPinning();
  if (pinning) pin(process.pid, pinning.bench);
  const node = await anvil(cleanup);
  const nodeSocket = node.url.replace(/^http/, 'ws');
  const srv = await server(cleanup, await tempDir(cleanup), { [NETWORK]: node.url }, undefined, {
    RPC_UPSTREAMS: JSON.stringify({ [NETWORK]: [node.url, nodeSocket] }),
    RPC_WS_MAX_CONNECTIONS_PER_KEY: String(CLIENTS + CONNECTIONS),
    RPC_WS_MAX_SUBSCRIPTIONS_PER_KEY: String(CLIENTS + CONNECTIONS),
  });
  if (pinning) for (const pid of [srv.pid, node.pid]) pin(pid, pinning.servers);
  const holder = await customer(srv);
  const url = rpcWebSocketUrl(srv.baseUrl, NETWORK, holder.keyId, holder.key);

  // Notifications: each of CLIENTS clients' arrival of each block, against one client straight to the node.
  const gateway = await fanOut(url, nodeSocket, node.url);
  const figures = JSON.parse(admin(srv, 'rpc', 'subscriptions', '--json')) as Array<{
    network: string;
    upstreamSubscriptions: number;
  }>;
  const upstream = figures.find((f) => f.network === NETWORK)?.upstreamSubscriptions ?? Number.NaN;
  // The same with every client straight to the node: this machine's cost of one process writing to
  // CLIENTS sockets, and of this one reading them.
  const straight = await fanOut(nodeSocket, nodeSocket, node.url);
  for (const [what, f] of [
    ['through the gateway', gateway],
    ['straight to the node', straight],
  ] as const) {
    log(
      `newHeads to ${CLIENTS} clients ${what}, ${BLOCKS} blocks: delay over one direct client p50 ${f.p50.toFixed(2)} ms, p99 ${f.p99.toFixed(2)} ms; ${f.missing} notifications missing or repeated`,
    );
  }
  log(`${upstream} upstream subscription(s) for the gateway's ${CLIENTS} clients`);
  await sleep(1000);

  // Calls: the same eth_blockNumber over HTTP and over WebSocket, rounds side by side.
  const http: number[] = [];
  const ws: number[] = [];
  let failed = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const m = await measure({ name: 'gateway over HTTP', url: holder.gatewayUrl(NETWORK) }, CALL_SECONDS, {
      body: RPC_BODY,
      calls: 1,
      connections: CONNECTIONS,
    });
    failed += failures(m);
    http.push(m.requestsPerSecond);
    const w = await wsCalls(url, CONNECTIONS, CALL_SECONDS);
    failed += w.failed;
    ws.push(w.perSecond);
    log(
      `round ${round + 1}: HTTP ${Math.round(m.requestsPerSecond)} calls/s, WebSocket ${Math.round(w.perSecond)} calls/s`,
    );
  }
  const results: Figure[] = [
    {
      suite: SUITE,
      name: `newHeads notification delay over a direct client, ${CLIENTS} clients, p50`,
      value: round(gateway.p50),
      unit: 'ms',
      target: { max: 1 },
    },
    {
      suite: SUITE,
      name: `newHeads notification delay over a direct client, ${CLIENTS} clients, p99`,
      value: round(gateway.p99),
      unit: 'ms',
      target: { max: 10 },
    },
    {
      suite: SUITE,
      name: `the same, ${CLIENTS} clients straight to the node (this machine's fan-out), p50`,
      value: round(straight.p50),
      unit: 'ms',
    },
    {
      suite: SUITE,
      name: `the same, ${CLIENTS} clients straight to the node (this machine's fan-out), p99`,
      value: round(straight.p99),
      unit: 'ms',
    },
    {
      suite: SUITE,
      name: `upstream subscriptions for ${CLIENTS} clients of newHeads`,
      value: upstream,
      unit: 'subscriptions',
      target: { max: 1 },
    },
    {
      suite: SUITE,
      name: 'notifications missing or repeated',
      value: gateway.missing,
      unit: 'notifications',
      target: { max: 0 },
    },
    {
      suite: SUITE,
      name: `calls over HTTP, ${CONNECTIONS} connections (median round)`,
      value: Math.round(median(http)),
      unit: 'calls/s',
    },
    {
      suite: SUITE,
      name: `calls over WebSocket, ${CONNECTIONS} connections (median round)`,
      value: Math.round(median(ws)),
      unit: 'calls/s',
    },
    {
      suite: SUITE,
      name: 'calls over WebSocket ÷ over HTTP',
      value: round(median(ws) / median(http)),
      unit: '×',
      target: { min: 1 },
    },
    { suite: SUITE, name: 'failed calls, all rounds', value: failed, unit: 'calls', target: { max: 0 } },
  ];
  for (const figure of results) report(figure);
  return 0;
}

const round = (value: number) => Number(value.toFixed(2));

runSuite(main);
