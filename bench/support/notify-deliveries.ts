// The notify suite's webhook receiver (answers 200, stamps each delivery's arrival) and the check of
// what arrived against what each block holds: every block delivered once to each webhook it concerns,
// with exactly its matching transfers, told right.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { NotifyPayload } from '@ebs/contract';
import { formatUnits } from 'viem';
import { type Chain, type Match, TOKEN } from './notify-chain.ts';
import type { Cleanup } from './stack.ts';

export interface Arrival {
  /** performance.now() when the whole request had arrived. */
  at: number;
  body: string;
}

export interface Receiver {
  url: string;
  arrivals: Arrival[];
  /** TCP connections the server opened to deliver. */
  connections(): number;
}

export async function deliveryReceiver(cleanup: Cleanup): Promise<Receiver> {
  const arrivals: Arrival[] = [];
  let connections = 0;
  const server = http.createServer({ keepAliveTimeout: 600_000 }, (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      arrivals.push({ at: performance.now(), body: Buffer.concat(chunks).toString() });
      response.writeHead(200, { 'content-length': 0 });
      response.end();
    });
  });
  server.on('connection', () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanup.add(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    arrivals,
    connections: () => connections,
  };
}

/** Who watches what: webhook w (its id at ids[w]) watches the watched addresses [w × per, (w + 1) × per). */
export interface Watchers {
  ids: string[];
  perWebhook: number;
}

/** The deliveries every block 1..n of the chain must give: per block, each concerned webhook's matches. */
export function expectedDeliveries(chain: Chain, watchers: Watchers): Array<Map<string, Match[]>> {
  return chain.blocks.map((block) => {
    const byWebhook = new Map<string, Match[]>();
    for (const match of block.matches) {
      const id = watchers.ids[Math.floor(match.watched / watchers.perWebhook)] ?? '';
      byWebhook.set(id, [...(byWebhook.get(id) ?? []), match]);
    }
    return byWebhook;
  });
}

export interface DeliveryCheck {
  /** Arrival − the block's appearance of every delivery of the measured blocks, in ms. */
  latencies: number[];
  /** Per measured block, when its last delivery arrived after its appearance, in ms. */
  blockLatencies: number[];
  /** Activities delivered for the measured blocks, per block. */
  activitiesPerBlock: number[];
  problems: string[];
}

/** What is wrong with one delivery's activity against the block's matches; undefined when it is right. */
function wrongActivity(payload: NotifyPayload, expected: Match[]): string | undefined {
  if (payload.type !== 'ADDRESS_ACTIVITY' || payload.confirmed || payload.removed || payload.replay) {
    return `not a live event (${payload.type}, confirmed ${payload.confirmed}, removed ${payload.removed}, replay ${payload.replay})`;
  }
  if (payload.activity.length !== expected.length) {
    return `${payload.activity.length} activities where the block has ${expected.length} matching transfers`;
  }
  const told = new Map(payload.activity.map((a) => [`${a.category} ${a.txHash}`, a]));
  for (const match of expected) {
    const activity = told.get(`${match.category} ${match.txHash}`);
    if (!activity) return `the ${match.category} transfer ${match.txHash} is missing`;
    const erc20 = match.category === 'ERC20';
    const right =
      activity.fromAddress === match.from &&
      activity.toAddress === match.to &&
      activity.rawValue === `0x${match.amount.toString(16)}` &&
      activity.value === formatUnits(match.amount, erc20 ? TOKEN.decimals : 18) &&
      activity.asset === (erc20 ? TOKEN.symbol : 'ETH') &&
      activity.contractAddress === (erc20 ? TOKEN.address : null);
    if (!right) return `the ${match.category} transfer ${match.txHash} is told wrong: ${JSON.stringify(activity)}`;
  }
  return undefined;
}

/**
 * Checks every arrival against the chain's blocks 1..n and times the measured ones (`first`..`last`,
 * 1-based after the base) against `appearance`.
 */
export function checkDeliveries(
  arrivals: readonly Arrival[],
  expected: ReadonlyArray<Map<string, Match[]>>,
  chain: Chain,
  measured: { first: number; last: number },
  appearance: (index: number) => number,
): DeliveryCheck {
  const check: DeliveryCheck = { latencies: [], blockLatencies: [], activitiesPerBlock: [], problems: [] };
  const got = new Map<string, Array<{ payload: NotifyPayload; at: number }>>();
  for (const arrival of arrivals) {
    const payload = JSON.parse(arrival.body) as NotifyPayload;
    const key = `${payload.webhookId} ${payload.block.number}`;
    got.set(key, [...(got.get(key) ?? []), { payload, at: arrival.at }]);
  }
  for (const [index, block] of chain.blocks.entries()) {
    const timed = index >= measured.first && index <= measured.last;
    let last = 0;
    let activities = 0;
    for (const [webhookId, matches] of expected[index] ?? []) {
      const key = `${webhookId} ${block.number}`;
      const deliveries = got.get(key) ?? [];
      got.delete(key);
      if (deliveries.length !== 1) {
        check.problems.push(`block ${block.number}: ${deliveries.length} deliveries to webhook ${webhookId}, not 1`);
      }
      for (const { payload, at } of deliveries) {
        const wrong = payload.block.hash === block.hash ? wrongActivity(payload, matches) : 'another block hash';
        if (wrong) check.problems.push(`block ${block.number}, webhook ${webhookId}: ${wrong}`);
        activities += payload.activity.length;
        const latency = at - appearance(index);
        last = Math.max(last, latency);
        if (timed) check.latencies.push(latency);
      }
    }
    if (timed) {
      check.blockLatencies.push(last);
      check.activitiesPerBlock.push(activities);
    }
  }
  for (const [key, deliveries] of got) {
    check.problems.push(`${deliveries.length} deliveries no block called for (webhook and block ${key})`);
  }
  return check;
}
