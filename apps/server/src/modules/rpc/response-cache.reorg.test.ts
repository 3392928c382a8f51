import { type Hex, keccak256 } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_PRIVATE_KEY, startAnvil } from '../../testing/anvil.ts';
import { pglite } from '../../testing/databases.ts';
import { accountWithKey, rpcCall } from '../../testing/keys.ts';
import { until } from '../../testing/poll.ts';
import { reportFigures } from '../../testing/report.ts';
import { serverFor } from '../../testing/server.ts';

const NETWORK = 'ethereum/mainnet';
const DEPTH = 5;
const hex = (n: number) => `0x${n.toString(16)}`;

const node = await startAnvil(1);
afterAll(() => node.stop());

/** A call straight to the node, past the gateway: what the chain says. */
async function directAnswer(
  method: string,
  params: unknown[] = [],
): Promise<{ result?: unknown; error?: { message: string } }> {
  const answer = await fetch(node.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await answer.json()) as { result?: unknown; error?: { message: string } };
}
const direct = async (method: string, params: unknown[] = []) => (await directAnswer(method, params)).result;

describe('the gateway’s cache in front of a real node (Anvil) that reorganises', () => {
  const server = serverFor(pglite, {
    RPC_UPSTREAMS: JSON.stringify({ [NETWORK]: [node.url] }),
    RPC_CACHE_DEPTHS: JSON.stringify({ [NETWORK]: DEPTH }),
    RPC_HEAD_POLL_MS: '200',
    USAGE_FLUSH_SECONDS: '60',
  });
  let url: string;
  const call = (method: string, params: unknown[]) => rpcCall(url, { jsonrpc: '2.0', id: 1, method, params });

  beforeAll(async () => {
    url = (await accountWithKey(server().url, server().db)).url(NETWORK);
    await direct('anvil_mine', [hex(30)]);
  });

  it('never answers a block of the old chain after a reorg deeper than the depth', async () => {
    const blocks = Array.from({ length: 25 }, (_, i) => i + 1);
    const readAll = () => Promise.all(blocks.map((n) => call('eth_getBlockByNumber', [hex(n), false])));
    // Until the head is read nothing at a block is kept; then blocks 1..25 (30 - 5) are.
    await until('blocks below the line answered from memory', async () => {
      const answers = await readAll();
      return answers.every((a) => a.headers.get('x-cache') === 'HIT') && answers;
    });
    const before = (await readAll()).map((a) => (a.body.result as { hash: string }).hash);
    expect(before).toEqual(
      await Promise.all(
        blocks.map(async (n) => ((await direct('eth_getBlockByNumber', [hex(n), false])) as { hash: string }).hash),
      ),
    );

    // The node replaces its last 25 blocks (6..30): 20 of them were below the line.
    await direct('anvil_reorg', [25, []]);
    const truth = await Promise.all(
      blocks.map(async (n) => ((await direct('eth_getBlockByNumber', [hex(n), false])) as { hash: string }).hash),
    );
    expect(truth.slice(5).every((hash, i) => hash !== before[i + 5])).toBe(true);

    // From the flush on, every answer is the new chain's; until then the gateway may still hold the old.
    const fresh = await until('the gateway drops the old chain', async () => {
      const answers = await readAll();
      const hashes = answers.map((a) => (a.body.result as { hash: string }).hash);
      return hashes.every((hash, i) => hash === truth[i]) && hashes;
    });
    let wrong = 0;
    for (let round = 0; round < 3; round++) {
      const hashes = (await readAll()).map((a) => (a.body.result as { hash: string }).hash);
      wrong += hashes.filter((hash, i) => hash !== truth[i]).length;
    }
    const figures = server()
      .deps.rpc.cacheFigures()
      .find((f) => f.network === NETWORK);
    expect({ wrong, flushes: figures?.flushes, answers: fresh.length }).toEqual({ wrong: 0, flushes: 1, answers: 25 });
    reportFigures('response cache under a reorg deeper than the depth', {
      depth: DEPTH,
      reorgedBlocks: 25,
      wrongAnswersAfterFlush: wrong,
      flushes: figures?.flushes ?? 0,
      hitRate: Number(figures?.hitRate.toFixed(2)),
    });
  });

  it('answers a resent signed transaction with its hash instead of the node’s nonce error', async () => {
    const account = privateKeyToAccount(DEV_PRIVATE_KEY);
    const nonce = Number(await direct('eth_getTransactionCount', [account.address, 'latest']));
    const transfer = (to: `0x${string}`) =>
      account.signTransaction({
        chainId: 1,
        to,
        value: 1n,
        nonce,
        gas: 21_000n,
        maxFeePerGas: 10_000_000_000n,
        maxPriorityFeePerGas: 1n,
      });
    const raw = await transfer(`0x${'35'.repeat(20)}`);
    const first = await call('eth_sendRawTransaction', [raw]);
    expect(first.body.result).toBe(keccak256(raw as Hex));
    // Once it is in a block, the same bytes again are a used nonce to the node.
    await until('the transaction in a block', async () =>
      Boolean(await direct('eth_getTransactionReceipt', [first.body.result])),
    );
    expect((await directAnswer('eth_sendRawTransaction', [raw])).error?.message).toMatch(/nonce/i);
    const retried = await call('eth_sendRawTransaction', [raw]);
    expect(retried.body).toEqual({ jsonrpc: '2.0', id: 1, result: keccak256(raw as Hex) });
    // Another transaction with that nonce is still refused with the node's own error.
    const other = await transfer(`0x${'36'.repeat(20)}`);
    const refused = await call('eth_sendRawTransaction', [other]);
    expect(refused.body.error?.message).toMatch(/nonce/i);
  });
});
