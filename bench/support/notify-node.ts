// The notify suite's JSON-RPC node, in the bench's own process: it serves a Chain whose blocks appear
// on a schedule. Block i (1 = the first after the base) appears at `start + (i - 1) × interval`: from
// that moment on `eth_blockNumber` answers it, and before it the block is not there. The moment is
// read from the same clock (performance.now()) the receiver stamps deliveries with.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Chain, SEPOLIA_CHAIN_ID, TRANSFER_TOPIC, tokenCall } from './notify-chain.ts';
import type { Cleanup } from './stack.ts';

interface Call {
  id?: unknown;
  method?: unknown;
  params?: unknown;
}

const hex = (n: number) => `0x${n.toString(16)}`;
const NOT_FOUND = { code: -32601, message: 'the method does not exist' };

export interface ScheduledNode {
  url: string;
  /** Starts the schedule: the first block after the base appears at `at` (performance.now()). */
  start(at: number, intervalMs: number): void;
  /** When block i (1-based after the base) appeared. */
  appearance(index: number): number;
  /** The calls it answered so far by method (block reads whole or by hashes apart), a batch's one by one. */
  counts(): Record<string, number>;
  /**
   * `eth_blockNumber` asked alone, as the scanner and the API ask the head (the gateway's own head
   * reads come in batches with another call).
   */
  aloneHeadReads(): number;
}

export async function scheduledNode(cleanup: Cleanup, chain: Chain): Promise<ScheduledNode> {
  const last = chain.base + chain.blocks.length - 1;
  let start = Number.POSITIVE_INFINITY;
  let interval = 1000;
  const counts: Record<string, number> = {};
  let aloneHeadReads = 0;
  const head = () => {
    const now = performance.now();
    if (now < start) return chain.base;
    return Math.min(last, chain.base + 1 + Math.floor((now - start) / interval));
  };
  const numberOf = (tag: unknown, at: number) =>
    typeof tag === 'string' && tag.startsWith('0x') ? Number.parseInt(tag, 16) : tag === 'earliest' ? chain.base : at;

  /** One call's result as JSON text, or a JSON-RPC error. */
  const resultOf = (method: string, params: unknown[]): string | { code: number; message: string } => {
    const at = head();
    switch (method) {
      case 'eth_chainId':
        return `"${hex(SEPOLIA_CHAIN_ID)}"`;
      case 'net_version':
        return `"${SEPOLIA_CHAIN_ID}"`;
      case 'eth_blockNumber':
        return `"${hex(at)}"`;
      case 'eth_getBlockByNumber': {
        const block = chain.block(numberOf(params[0], at), at);
        return block ? (params[1] ? block.full : block.hashes) : 'null';
      }
      case 'eth_getBlockByHash': {
        const block = chain.blockByHash(String(params[0]), at);
        return block ? (params[1] ? block.full : block.hashes) : 'null';
      }
      case 'eth_getLogs': {
        const filter = (params[0] ?? {}) as {
          blockHash?: string;
          fromBlock?: unknown;
          toBlock?: unknown;
          topics?: unknown[];
        };
        const first = filter.topics?.[0];
        const wanted = first === undefined || first === null || [first].flat().includes(TRANSFER_TOPIC);
        if (filter.blockHash !== undefined) {
          const block = chain.blockByHash(filter.blockHash, at);
          return block && wanted ? block.logs : '[]';
        }
        const from = numberOf(filter.fromBlock ?? 'latest', at);
        const to = Math.min(numberOf(filter.toBlock ?? 'latest', at), at);
        const parts: string[] = [];
        for (let n = from; wanted && n <= to; n++) {
          const logs = chain.block(n, at)?.logs ?? '[]';
          if (logs !== '[]') parts.push(logs.slice(1, -1));
        }
        return `[${parts.join(',')}]`;
      }
      case 'eth_getTransactionReceipt':
        return chain.receipt(String(params[0]), at);
      case 'eth_call': {
        const call = (params[0] ?? {}) as { to?: unknown; data?: unknown; input?: unknown };
        const answer = tokenCall(call.to, call.data ?? call.input);
        return answer === undefined ? '"0x"' : `"${answer}"`;
      }
      default:
        return NOT_FOUND;
    }
  };

  const answer = (call: Call): string => {
    const method = String(call.method);
    const params = Array.isArray(call.params) ? call.params : [];
    // A block read whole (its transactions) is the scanner's; one by hashes only is a check of the head.
    const counted = method === 'eth_getBlockByNumber' ? `${method}(${params[1] ? 'full' : 'hashes'})` : method;
    counts[counted] = (counts[counted] ?? 0) + 1;
    const result = resultOf(method, params);
    const id = JSON.stringify(call.id ?? null);
    return typeof result === 'string'
      ? `{"jsonrpc":"2.0","id":${id},"result":${result}}`
      : `{"jsonrpc":"2.0","id":${id},"error":${JSON.stringify(result)}}`;
  };

  const server = http.createServer({ keepAliveTimeout: 600_000 }, (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      let text: string;
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString()) as Call | Call[];
        if (!Array.isArray(body) && body.method === 'eth_blockNumber') aloneHeadReads += 1;
        text = Array.isArray(body) ? `[${body.map(answer).join(',')}]` : answer(body);
      } catch {
        text = '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}';
      }
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      response.end(text);
    });
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
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    start(at, intervalMs) {
      start = at;
      interval = intervalMs;
    },
    appearance: (index) => start + (index - 1) * interval,
    counts: () => ({ ...counts }),
    aloneHeadReads: () => aloneHeadReads,
  };
}
