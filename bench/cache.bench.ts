// `npm run bench` cache suite: a mixed dApp workload on a real Anvil node, through the gateway (its
// response cache and merged calls on, as by default) and through nginx (no cache), in one run:
// throughput, the calls that reach the node per client call, and wrong answers when the node
// replaces its last blocks mid-run. docs/performance.md explains the mix and the figures.
import os from 'node:os';
import { nodeCall } from '../apps/server/src/modules/rpc/anvil-nodes.ts';
import type { CacheFigures } from '../apps/server/src/modules/rpc/response-cache.ts';
import { cpuPinning, pin } from './support/cpu-pinning.ts';
import type { Figure } from './support/figures.ts';
import { failures, type Load, type Measurement, measure, type Target } from './support/load.ts';
import { ensureNginx, nginxProxy } from './support/nginx.ts';
import { bestOf, finishSuite, problems, table } from './support/report.ts';
import { wholeSetting } from './support/settings.ts';
import { admin, anvil, type Cleanup, countingProxy, customer, server, tempDir } from './support/stack.ts';
import { runSuite } from './support/suite.ts';

const DURATION = wholeSetting('BENCH_DURATION', 5);
const ROUNDS = wholeSetting('BENCH_ROUNDS', 3);
const CONNECTIONS = wholeSetting('BENCH_CONNECTIONS', 64);
const NETWORK = 'ethereum/mainnet';
/** The gateway's confirmation depth on Ethereum (rpc.service.ts): blocks younger than this never come from the cache. */
const DEPTH = 64;
/** Transfers seeded at the start, one block each, then empty blocks on top. */
const TRANSFERS = 120;
const EMPTY_BLOCKS = 400;
/** Blocks the node replaces in the reorg phase: fewer than the depth, as real reorgs are. */
const REORG_BLOCKS = 20;
/** Ordinary accounts (the lowest addresses are precompiles, which refuse arbitrary call data). */
const ADDRESSES = Array.from({ length: 12 }, (_, i) => `0x${(0x1000 + i).toString(16).padStart(40, '0')}`);

const log = (line: string) => process.stderr.write(`${line}\n`);
const hex = (n: number) => `0x${n.toString(16)}`;
const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)] as T;
const between = (low: number, high: number) => low + Math.floor(Math.random() * (high - low + 1));

/**
 * The mix: what a dApp's pages and a wallet send through viem's public actions (getChainId on
 * connect, watchBlockNumber's polling, getBalance, readContract's eth_call at `latest`,
 * waitForTransactionReceipt), beside an explorer or indexer reading history (blocks and receipts
 * of old blocks, balances at a past block), with a share of reads of the newest blocks.
 * Weights in percent of calls.
 */
function mix(head: number, transfers: Array<{ hash: string; block: number }>) {
  const old = transfers.filter((t) => t.block <= head - DEPTH);
  const call = (method: string, params: unknown[]) => JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
  const kinds: Array<[number, () => string]> = [
    [20, () => call('eth_blockNumber', [])],
    [10, () => call('eth_chainId', [])],
    [10, () => call('eth_call', [{ to: pick(ADDRESSES), data: '0x70a08231' }, 'latest'])],
    [20, () => call('eth_getBlockByNumber', [hex(between(1, head - DEPTH)), false])],
    [10, () => call('eth_getBlockByNumber', [hex(between(head - 30, head)), false])],
    [15, () => call('eth_getTransactionReceipt', [pick(old).hash])],
    [15, () => call('eth_getBalance', [pick(ADDRESSES), hex(between(1, head - DEPTH))])],
  ];
  const total = kinds.reduce((sum, [weight]) => sum + weight, 0);
  return () => {
    let roll = Math.random() * total;
    for (const [weight, make] of kinds) {
      roll -= weight;
      if (roll < 0) return make();
    }
    return (kinds[0] as [number, () => string])[1]();
  };
}

async function main(cleanup: Cleanup): Promise<number> {
  const started = Date.now();
  const loadBefore = os.loadavg()[0] ?? 0;
  const pinning = cpuPinning();
  if (pinning) pin(process.pid, pinning.bench);
  const dir = await tempDir(cleanup);
  const node = await anvil(cleanup);

  // The chain: transfers to the mix's addresses, one block each, then empty blocks.
  const [from] = (await nodeCall(node.url, 'eth_accounts')) as string[];
  const transfers: Array<{ hash: string; block: number }> = [];
  for (let i = 0; i < TRANSFERS; i++) {
    const hash = (await nodeCall(node.url, 'eth_sendTransaction', [
      { from, to: ADDRESSES[i % ADDRESSES.length], value: hex(1_000 + i) },
    ])) as string;
    transfers.push({ hash, block: i + 1 });
  }
  await nodeCall(node.url, 'anvil_mine', [hex(EMPTY_BLOCKS)]);
  const head = Number(await nodeCall(node.url, 'eth_blockNumber'));

  const counter = await countingProxy(cleanup, node.url);
  const srv = await server(cleanup, dir, { [NETWORK]: counter.url }, undefined);
  const holder = await customer(srv);
  const nginx = ensureNginx(log);
  const proxy = nginx ? await nginxProxy(cleanup, nginx, dir, node.url) : undefined;
  if (pinning) for (const pid of [srv.pid, node.pid, counter.pid, proxy?.pid]) pin(pid, pinning.servers);
  log(`ready in ${((Date.now() - started) / 1000).toFixed(1)} s: head ${head}, ${TRANSFERS} transfers`);

  const targets: Target[] = [{ name: 'direct', url: node.url }];
  if (proxy) targets.push({ name: 'nginx', url: proxy.url });
  targets.push({ name: 'gateway', url: holder.gatewayUrl(NETWORK), cpuSeconds: srv.cpuSeconds });
  const load: Load = { body: '', calls: 1, connections: CONNECTIONS, next: mix(head, transfers) };

  const all: Measurement[] = [];
  const rounds = new Map<string, Measurement[]>(targets.map((t) => [t.name, []]));
  let gatewayCalls = 0;
  let upstreamCalls = 0;
  for (const target of targets) all.push(await measure(target, 1, load));
  for (let round = 1; round <= ROUNDS; round++) {
    for (const target of targets) {
      const before = await counter.calls();
      const m = await measure(target, DURATION, load);
      if (target.name === 'gateway') {
        gatewayCalls += m.answers;
        upstreamCalls += (await counter.calls()) - before;
      }
      all.push(m);
      rounds.get(target.name)?.push(m);
    }
  }
  const best = targets.map((t) => bestOf(rounds.get(t.name) ?? []));
  const gateway = best.find((m) => m.target === 'gateway') as Measurement;
  const nginxBest = best.find((m) => m.target === 'nginx');
  // The gateway's own count, as the operator reads it.
  const hitRate =
    (JSON.parse(admin(srv, 'rpc', 'cache', '--json')) as CacheFigures[]).find((f) => f.network === NETWORK)?.hitRate ??
    0;

  // Reorg phase: the node replaces its last REORG_BLOCKS blocks while the mix runs through the
  // gateway; every answer to a request sent a second or more after the reorg (past any call in
  // flight at that moment, its merged followers included) must be the new chain's. Calls that
  // follow the head (eth_blockNumber, anything at latest) move on their own and are not checked.
  const seen = new Map<string, string>();
  let reorgedAt = Number.POSITIVE_INFINITY;
  const checking: Load = {
    ...load,
    answered: (body, status, answer, sentAt) => {
      if (
        status === 200 &&
        sentAt > reorgedAt + 1000 &&
        !body.includes('eth_blockNumber') &&
        !body.includes('latest')
      ) {
        seen.set(body, answer);
      }
    },
  };
  const running = measure(targets.at(-1) as Target, DURATION, checking);
  await new Promise((resolve) => setTimeout(resolve, (DURATION * 1000) / 3));
  await nodeCall(node.url, 'anvil_reorg', [REORG_BLOCKS, []]);
  reorgedAt = Date.now();
  all.push(await running);
  let wrong = 0;
  for (const [body, answer] of seen) {
    const { method, params } = JSON.parse(body) as { method: string; params: unknown[] };
    const truth = JSON.stringify(await nodeCall(node.url, method, params));
    const got = JSON.stringify((JSON.parse(answer) as { result?: unknown }).result);
    if (truth !== got) wrong++;
  }

  const failed = all.reduce((sum, m) => sum + failures(m), 0);
  const trouble = all.flatMap((m) => problems(m, `${m.target} (mixed workload)`));
  for (const line of srv.log.errors) trouble.push(`server logged: ${line.slice(0, 300)}`);

  const lines = [
    `Anvil, mixed workload, ${CONNECTIONS} connections:`,
    table(best),
    ...(nginxBest
      ? [`gateway / nginx: throughput ${(gateway.requestsPerSecond / nginxBest.requestsPerSecond).toFixed(2)}×`]
      : []),
    `cache hit rate (admin rpc cache): ${(hitRate * 100).toFixed(1)} %`,
    `calls reaching the node per client call through the gateway: ${(upstreamCalls / gatewayCalls).toFixed(3)} (${upstreamCalls} for ${gatewayCalls}, its head reads included)`,
    `reorg of the last ${REORG_BLOCKS} blocks mid-run: ${seen.size} distinct answers after it checked against the node, ${wrong} wrong`,
    ...targets.map(
      (t) =>
        `rounds of ${t.name}: ${(rounds.get(t.name) ?? []).map((m) => Math.round(m.requestsPerSecond)).join(', ')} req/s`,
    ),
  ];
  const cpus = os.cpus();
  console.error(
    `\nEBS cache benchmark, ${new Date().toISOString().slice(0, 10)}: Node ${process.version}, ${cpus.length} CPUs, ` +
      `load average ${loadBefore.toFixed(2)} before the run; best of ${ROUNDS} interleaved rounds of ${DURATION} s\n`,
  );
  console.error(lines.join('\n'));

  const figures: Figure[] = [];
  if (nginxBest) {
    figures.push({
      suite: 'cache',
      name: 'gateway ÷ nginx req/s, Anvil, mixed dApp workload, 64 connections',
      value: Number((gateway.requestsPerSecond / nginxBest.requestsPerSecond).toFixed(2)),
      unit: '×',
      target: { min: 1.5 },
    });
  }
  figures.push(
    {
      suite: 'cache',
      name: 'calls reaching the node per client call, mixed dApp workload',
      value: Number((upstreamCalls / gatewayCalls).toFixed(3)),
      unit: 'calls',
      target: { max: 0.5 },
    },
    {
      suite: 'cache',
      name: `wrong answers after a reorg of the last ${REORG_BLOCKS} blocks mid-run`,
      value: wrong,
      unit: 'answers',
      target: { max: 0 },
    },
  );
  return finishSuite('cache', figures, failed, trouble);
}

runSuite(main);
