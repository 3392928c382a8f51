import { RpcErrorCodes, RpcMessages } from '@ebs/contract';
import { sql } from 'kysely';
import { keccak256 } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../../app/commands.ts';
import { pglite } from '../../testing/databases.ts';
import { accountWithKey, rpcCall } from '../../testing/keys.ts';
import { until } from '../../testing/poll.ts';
import { type NodeCall, startScriptedNode } from '../../testing/scripted-node.ts';
import { serverFor } from '../../testing/server.ts';
import type { CacheFigures } from './response-cache.ts';

const NETWORK = 'ethereum/mainnet';
const DEPTH = 10;
const hex = (n: number) => `0x${n.toString(16)}`;
const GAS_PRICE = '0x3b9aca00';

/**
 * A chain the test moves: its head, and a "fork" number that changes the hash of every block from
 * `forkFrom` on, as a reorg does.
 */
const chain = { head: 100, fork: 0, forkFrom: Number.POSITIVE_INFINITY, slowMs: 0 };
const hashOf = (n: number) =>
  `0x${(n >= chain.forkFrom ? chain.fork : 0).toString(16).padStart(2, '0')}${n.toString(16).padStart(62, '0')}`;

const node = await startScriptedNode(async ({ method, params }: NodeCall) => {
  if (chain.slowMs > 0 && method !== 'eth_blockNumber' && method !== 'eth_getBlockByNumber') {
    await new Promise((resolve) => setTimeout(resolve, chain.slowMs));
  }
  switch (method) {
    case 'eth_chainId':
      return '0x1';
    case 'eth_blockNumber':
      return hex(chain.head);
    case 'eth_getBlockByNumber': {
      const n = params[0] === 'latest' ? chain.head : Number(params[0]);
      return n > chain.head ? null : { number: hex(n), hash: hashOf(n), transactions: [] };
    }
    case 'eth_getTransactionReceipt':
      // The hash names its block: 0x…50 is in block 80, 0x…60 in block 96, anything else is unknown.
      return String(params[0]).endsWith('50')
        ? { blockNumber: hex(80) }
        : String(params[0]).endsWith('60')
          ? { blockNumber: hex(96) }
          : null;
    case 'eth_getLogs':
      return Array.from({ length: 5 }, (_, i) => ({ blockNumber: hex(50), logIndex: hex(i) }));
    case 'eth_call':
      return `0x${'00'.repeat(31)}2a`;
    case 'eth_gasPrice':
      return GAS_PRICE;
    case 'eth_sendRawTransaction':
      return { error: { code: -32000, message: 'already known' } };
    default:
      return { error: { code: -32601, message: `${method} not found` } };
  }
});
afterAll(() => node.close());

const seen = (method: string, first?: unknown) =>
  node.calls.filter((c) => c.method === method && (first === undefined || c.params[0] === first)).length;

describe('the gateway’s response cache, merging, eth_getLogs guard and transaction retries', () => {
  const server = serverFor(pglite, {
    RPC_UPSTREAMS: JSON.stringify({ [NETWORK]: [node.url] }),
    RPC_CACHE_DEPTHS: JSON.stringify({ [NETWORK]: DEPTH }),
    RPC_HEAD_POLL_MS: '100',
    RPC_GET_LOGS_MAX_RANGE: '50',
    RPC_GET_LOGS_MAX_RESULTS: '3',
    USAGE_FLUSH_SECONDS: '60',
  });
  let url: string;
  let accountId: string;
  const call = (method: string, params: unknown[], id: unknown = 1) =>
    rpcCall(url, { jsonrpc: '2.0', id, method, params });
  const cacheOf = async (method: string, params: unknown[]) => (await call(method, params)).headers.get('x-cache');

  beforeAll(async () => {
    const holder = await accountWithKey(server().url, server().db);
    url = holder.url(NETWORK);
    accountId = holder.accountId;
    // The first call at a block starts reading the head; the line is block 90 once it has been read.
    await call('eth_getBlockByNumber', [hex(1), false]);
    await until('the gateway has read the head', async () => seen('eth_getBlockByNumber', hex(chain.head - DEPTH)) > 0);
  });

  it('answers a constant and a block the depth below the head from memory, and never a younger one or a tag', async () => {
    expect(await cacheOf('eth_chainId', [])).toBe('MISS');
    const chainId = await call('eth_chainId', [], 'mine');
    expect(chainId.headers.get('x-cache')).toBe('HIT');
    expect(chainId.body).toEqual({ jsonrpc: '2.0', id: 'mine', result: '0x1' });
    expect(seen('eth_chainId')).toBe(1);

    const deep = hex(chain.head - DEPTH);
    expect(await cacheOf('eth_getBlockByNumber', [deep, false])).toBe('MISS');
    const again = await call('eth_getBlockByNumber', [deep, false], 2);
    expect(again.headers.get('x-cache')).toBe('HIT');
    expect(again.body.result).toEqual({ number: deep, hash: hashOf(chain.head - DEPTH), transactions: [] });
    // The other flag is another answer.
    expect(await cacheOf('eth_getBlockByNumber', [deep, true])).toBe('MISS');

    const young = hex(chain.head - DEPTH + 1);
    for (const params of [
      [young, false],
      [young, false],
      ['latest', false],
      ['latest', false],
      [hex(500), false],
    ]) {
      expect(await cacheOf('eth_getBlockByNumber', params)).toBe('MISS');
    }
    expect(seen('eth_getBlockByNumber', young)).toBe(2);
    // A block past the head is answered null by the node: never kept.
    expect(seen('eth_getBlockByNumber', hex(500))).toBe(1);
    expect(await cacheOf('eth_getBlockByNumber', [hex(500), false])).toBe('MISS');
  });

  it('keeps a receipt by the block it is in, never an unknown or young one', async () => {
    const old = `0x${'0'.repeat(62)}50`;
    const young = `0x${'0'.repeat(62)}60`;
    const unknown = `0x${'0'.repeat(62)}70`;
    expect([
      await cacheOf('eth_getTransactionReceipt', [old]),
      await cacheOf('eth_getTransactionReceipt', [old]),
    ]).toEqual(['MISS', 'HIT']);
    for (const hash of [young, young, unknown, unknown])
      expect(await cacheOf('eth_getTransactionReceipt', [hash])).toBe('MISS');
  });

  it('answers a batch from memory and the node together, in order, with the client’s own ids', async () => {
    const deep = hex(chain.head - DEPTH - 1);
    await call('eth_getBlockByNumber', [deep, false]);
    const before = node.calls.length;
    const batch = await rpcCall(url, [
      { jsonrpc: '2.0', id: 5, method: 'eth_chainId', params: [] },
      { jsonrpc: '2.0', id: 5, method: 'eth_gasPrice', params: [] },
      { jsonrpc: '2.0', id: 'x', method: 'eth_getBlockByNumber', params: [deep, false] },
      { jsonrpc: '2.0', id: null, method: 'eth_gasPrice', params: [] },
    ]);
    expect(batch.headers.get('x-cache')).toBe('MISS');
    expect(batch.body).toEqual([
      { jsonrpc: '2.0', id: 5, result: '0x1' },
      { jsonrpc: '2.0', id: 5, result: GAS_PRICE },
      { jsonrpc: '2.0', id: 'x', result: { number: deep, hash: hashOf(chain.head - DEPTH - 1), transactions: [] } },
      { jsonrpc: '2.0', id: null, result: GAS_PRICE },
    ]);
    // Only the two uncached calls reached the node (besides its own reads of the head).
    const reached = node.calls
      .slice(before)
      .filter((c) => c.method !== 'eth_blockNumber' && !(c.method === 'eth_getBlockByNumber' && c.params[0] !== deep));
    expect(reached).toEqual([
      { method: 'eth_gasPrice', params: [] },
      { method: 'eth_gasPrice', params: [] },
    ]);
  });

  it('empties the network’s cache when a reorg reaches below the depth, and answers the new blocks', async () => {
    const deep = chain.head - DEPTH - 2;
    await call('eth_getBlockByNumber', [hex(deep), false]);
    expect((await call('eth_getBlockByNumber', [hex(deep), false])).headers.get('x-cache')).toBe('HIT');
    // A reorg of the last 20 blocks: deeper than the depth of 10.
    chain.forkFrom = chain.head - 20;
    chain.fork = 1;
    const answer = await until('the gateway answers the new chain’s block', async () => {
      const got = await call('eth_getBlockByNumber', [hex(deep), false]);
      return (got.body.result as { hash?: string }).hash === hashOf(deep) && got;
    });
    expect(answer.body.result).toEqual({ number: hex(deep), hash: hashOf(deep), transactions: [] });
    const figures = server()
      .deps.rpc.cacheFigures()
      .find((f) => f.network === NETWORK);
    expect(figures?.flushes).toBe(1);
  });

  it('sends a burst of identical reads to the node once, each caller answered with its own id', async () => {
    chain.slowMs = 300;
    try {
      const before = seen('eth_call');
      const target = { to: `0x${'11'.repeat(20)}`, data: '0x06fdde03' };
      const params = [target, 'latest'];
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => call('eth_call', params, i)));
      expect(answers.map((a) => a.body)).toEqual(
        answers.map((_, i) => ({ jsonrpc: '2.0', id: i, result: `0x${'00'.repeat(31)}2a` })),
      );
      expect(seen('eth_call') - before).toBe(1);
      // Different parameters are different calls.
      await Promise.all([call('eth_call', params), call('eth_call', [{ ...target, data: '0x01' }, 'latest'])]);
      expect(seen('eth_call') - before).toBe(3);
    } finally {
      chain.slowMs = 0;
    }
  });

  it('answers a retried signed transaction with its hash, not the node’s "already known", and never merges sends', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const raw = await account.signTransaction({
      chainId: 1,
      to: `0x${'35'.repeat(20)}`,
      value: 1n,
      nonce: 0,
      gas: 21_000n,
      maxFeePerGas: 2n,
      maxPriorityFeePerGas: 1n,
    });
    const before = seen('eth_sendRawTransaction');
    const answers = await Promise.all([1, 2, 3].map((id) => call('eth_sendRawTransaction', [raw], id)));
    // The transaction's hash: keccak-256 of its signed bytes.
    expect(answers.map((a) => a.body)).toEqual([1, 2, 3].map((id) => ({ jsonrpc: '2.0', id, result: keccak256(raw) })));
    expect(seen('eth_sendRawTransaction') - before).toBe(3);
  });

  it('refuses an eth_getLogs range or an answer past the limits, with the range and the limit', async () => {
    const before = seen('eth_getLogs');
    const wide = await call('eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest' }], 4);
    expect(wide.body).toEqual({
      jsonrpc: '2.0',
      id: 4,
      error: {
        code: RpcErrorCodes.limitExceeded,
        message: RpcMessages.logsRangeTooLarge(0n, BigInt(chain.head), 50),
      },
    });
    expect(seen('eth_getLogs')).toBe(before);
    // A filter for eth_getFilterLogs is bounded alike.
    const filter = await call('eth_newFilter', [{ fromBlock: 'earliest' }], 5);
    expect(filter.body.error).toEqual({
      code: RpcErrorCodes.limitExceeded,
      message: RpcMessages.logsRangeTooLarge(0n, BigInt(chain.head), 50),
    });
    // In a batch, only that call is refused.
    const batch = await rpcCall(url, [
      { jsonrpc: '2.0', id: 1, method: 'eth_getLogs', params: [{ fromBlock: '0x0', toBlock: hex(5000) }] },
      { jsonrpc: '2.0', id: 2, method: 'eth_chainId', params: [] },
    ]);
    expect(batch.body.map((a) => [a.id, a.error?.code ?? a.result])).toEqual([
      [1, RpcErrorCodes.limitExceeded],
      [2, '0x1'],
    ]);
    // Within the range, the node's five logs are more than the three allowed.
    const many = await call('eth_getLogs', [{ fromBlock: hex(50), toBlock: hex(50) }], 6);
    expect(many.body).toEqual({
      jsonrpc: '2.0',
      id: 6,
      error: { code: RpcErrorCodes.limitExceeded, message: RpcMessages.logsTooMany(3) },
    });
    expect(seen('eth_getLogs')).toBe(before + 1);
  });

  it('meters every call it answered, from memory or not', async () => {
    const usage = async () =>
      Number(
        (
          await server()
            .db.selectFrom('account_resource_usage')
            .select(sql<string>`sum(usage)::text`.as('total'))
            .where('account_id', '=', accountId)
            .executeTakeFirstOrThrow()
        ).total,
      );
    // The reorg above emptied the cache: the first call is the node's.
    await call('eth_chainId', []);
    await server().deps.rpc.meter.flush();
    const before = await usage();
    expect((await call('eth_chainId', [])).headers.get('x-cache')).toBe('HIT');
    await rpcCall(url, [
      { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] },
      { jsonrpc: '2.0', id: 2, method: 'eth_chainId', params: [] },
    ]);
    await server().deps.rpc.meter.flush();
    expect((await usage()) - before).toBe(3);
  });

  it('shows the operator each network’s hits, misses and size', async () => {
    const { text, json } = await runCommand(server().db, ['rpc', 'cache'], {}, server().deps.rpc);
    const mainnet = (json as CacheFigures[]).find((f) => f.network === NETWORK);
    expect(mainnet).toMatchObject({ flushes: 1, maxBytes: 16 * 1024 * 1024 });
    expect(mainnet?.hits).toBeGreaterThan(0);
    expect(mainnet?.hitRate).toBeCloseTo((mainnet?.hits ?? 0) / ((mainnet?.hits ?? 0) + (mainnet?.misses ?? 0)));
    expect(text.split('\n')).toHaveLength(10);
    expect(text).toContain(`${NETWORK}  `);
    expect(text).toMatch(
      /ethereum\/mainnet\s+\d+\.\d % hit {2}\d+ hits, \d+ misses, \d+ answers, [\d.]+ of 16\.0 MiB, 1 reorg flushes/,
    );
  });
});
