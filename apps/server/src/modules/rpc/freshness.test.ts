import { RpcMessages, rpcMethodRule } from '@ebs/contract';
import { describe, expect, it } from 'vitest';
import { answerBlock, type Freshness, freshnessOf, mayKeep } from './freshness.ts';
import { logsCountRefusal, logsRangeRefusal } from './logs-guard.ts';

const HASH = `0x${'ab'.repeat(32)}`;
const ADDRESS = `0x${'12'.repeat(20)}`;
const at = (block: bigint): Freshness => ({ kind: 'at-block', block });
const NEVER: Freshness = { kind: 'never' };
const IN_ANSWER: Freshness = { kind: 'in-answer' };

describe('which calls the gateway may answer from its cache', () => {
  it('keeps the network constants whatever the head', () => {
    for (const method of ['eth_chainId', 'net_version']) {
      expect(freshnessOf(rpcMethodRule(method).cache, [])).toEqual({ kind: 'constant' });
      expect(mayKeep(freshnessOf(rpcMethodRule(method).cache, []), '0x1', undefined)).toBe(true);
    }
  });

  it('pins each state and block call to the block its parameter names, and never caches a tag', () => {
    const cases: Array<[string, unknown[], Freshness]> = [
      ['eth_getBlockByNumber', ['0x10', false], at(16n)],
      ['eth_getBlockByNumber', ['0x0', true], at(0n)],
      ['eth_getBlockTransactionCountByNumber', ['0x10'], at(16n)],
      ['eth_getTransactionByBlockNumberAndIndex', ['0x10', '0x0'], at(16n)],
      ['eth_getUncleCountByBlockNumber', ['0x10'], at(16n)],
      ['eth_getUncleByBlockNumberAndIndex', ['0x10', '0x0'], at(16n)],
      ['eth_getBlockReceipts', ['0x10'], at(16n)],
      ['eth_getBlockReceipts', [HASH], IN_ANSWER],
      ['eth_getBalance', [ADDRESS, '0x10'], at(16n)],
      ['eth_getCode', [ADDRESS, '0x10'], at(16n)],
      ['eth_getTransactionCount', [ADDRESS, '0x10'], at(16n)],
      ['eth_getStorageAt', [ADDRESS, '0x0', '0x10'], at(16n)],
      ['eth_call', [{ to: ADDRESS, data: '0x' }, '0x10'], at(16n)],
      // EIP-1898: a block number as an object counts; a block hash does not (its height is unknown here).
      ['eth_call', [{ to: ADDRESS }, { blockNumber: '0x10' }], at(16n)],
      ['eth_call', [{ to: ADDRESS }, { blockHash: HASH }], NEVER],
      ['eth_getProof', [ADDRESS, [], '0x10'], at(16n)],
      // No block: the node takes latest.
      ['eth_call', [{ to: ADDRESS }], NEVER],
      ['eth_getBalance', [ADDRESS], NEVER],
      // Not a quantity (leading zero, too long, not hex).
      ['eth_getBlockByNumber', ['0x010', false], NEVER],
      ['eth_getBlockByNumber', [`0x1${'0'.repeat(16)}`, false], NEVER],
      ['eth_getBlockByNumber', [16, false], NEVER],
    ];
    for (const tag of ['latest', 'pending', 'safe', 'finalized', 'earliest']) {
      cases.push(['eth_getBlockByNumber', [tag, false], NEVER], ['eth_getBalance', [ADDRESS, tag], NEVER]);
    }
    for (const [method, params, expected] of cases)
      expect([method, params, freshnessOf(rpcMethodRule(method).cache, params)]).toEqual([method, params, expected]);
  });

  it('keeps answers by hash by the block the answer names, never a pending or missing one', () => {
    for (const method of [
      'eth_getBlockByHash',
      'eth_getTransactionByHash',
      'eth_getTransactionReceipt',
      'eth_getTransactionByBlockHashAndIndex',
    ]) {
      expect(freshnessOf(rpcMethodRule(method).cache, [HASH])).toEqual(IN_ANSWER);
    }
    expect(answerBlock({ number: '0x10', hash: HASH })).toBe(16n);
    expect(answerBlock({ blockNumber: '0x11', transactionHash: HASH })).toBe(17n);
    expect(answerBlock([{ blockNumber: '0x3' }, { blockNumber: '0x5' }])).toBe(5n);
    // A transaction still in the pool has no block yet.
    expect(answerBlock({ blockNumber: null, hash: HASH })).toBeNull();
    expect(mayKeep(IN_ANSWER, { blockNumber: '0x10' }, 16n)).toBe(true);
    expect(mayKeep(IN_ANSWER, { blockNumber: '0x11' }, 16n)).toBe(false);
    expect(mayKeep(IN_ANSWER, { blockNumber: null }, 16n)).toBe(false);
    expect(mayKeep(IN_ANSWER, null, 16n)).toBe(false);
  });

  it('keeps eth_getLogs for a range of block numbers by its last block, or by hash by the logs’ block', () => {
    expect(
      freshnessOf(rpcMethodRule('eth_getLogs').cache, [{ fromBlock: '0x1', toBlock: '0x10', address: ADDRESS }]),
    ).toEqual(at(16n));
    expect(freshnessOf(rpcMethodRule('eth_getLogs').cache, [{ blockHash: HASH }])).toEqual(IN_ANSWER);
    for (const filter of [
      { fromBlock: '0x1' },
      { fromBlock: '0x1', toBlock: 'latest' },
      { toBlock: '0x10' },
      { fromBlock: '0x10', toBlock: '0x1' },
      null,
    ]) {
      expect(freshnessOf(rpcMethodRule('eth_getLogs').cache, [filter])).toEqual(NEVER);
    }
  });

  it('keeps an answer at a block only once the block is the confirmation depth below the head, and never an empty one', () => {
    const block16 = at(16n);
    expect(mayKeep(block16, { number: '0x10' }, 16n)).toBe(true);
    expect(mayKeep(block16, { number: '0x10' }, 15n)).toBe(false);
    // Head not known: nothing at a block is kept.
    expect(mayKeep(block16, { number: '0x10' }, undefined)).toBe(false);
    // A node behind the others answers "nothing there" for a block it has not seen.
    for (const empty of [null, [], '0x', {}]) expect(mayKeep(block16, empty, 100n)).toBe(false);
    expect(mayKeep(block16, '0x0', 100n)).toBe(true);
    expect(mayKeep(NEVER, '0x1', 100n)).toBe(false);
  });

  it('never caches calls with effects or that follow the head', () => {
    for (const method of [
      'eth_blockNumber',
      'eth_sendRawTransaction',
      'eth_gasPrice',
      'eth_estimateGas',
      'eth_newFilter',
      'eth_getFilterChanges',
    ]) {
      expect(freshnessOf(rpcMethodRule(method).cache, ['0x10'])).toEqual(NEVER);
    }
  });
});

describe('the eth_getLogs guard', () => {
  const head = async () => 20_000n;

  it('refuses a range past the limit with the range and the limit, resolving tags with the head', async () => {
    expect(await logsRangeRefusal({ fromBlock: '0x0', toBlock: '0x270f' }, 10_000, head)).toBeNull();
    expect(await logsRangeRefusal({ fromBlock: '0x0', toBlock: '0x2710' }, 10_000, head)).toBe(
      RpcMessages.logsRangeTooLarge(0n, 10_000n, 10_000),
    );
    expect(RpcMessages.logsRangeTooLarge(0n, 10_000n, 10_000)).toBe(
      'eth_getLogs block range too large: blocks 0-10000 span 10001, at most 10000 per request; split the range',
    );
    // earliest..latest: the whole chain.
    expect(await logsRangeRefusal({ fromBlock: 'earliest' }, 10_000, head)).toBe(
      RpcMessages.logsRangeTooLarge(0n, 20_000n, 10_000),
    );
    expect(await logsRangeRefusal({ fromBlock: '0x4650', toBlock: 'latest' }, 10_000, head)).toBeNull();
    // One block by hash, a limit of 0, a backwards range (the node's own error), an unknown head: passed on.
    expect(await logsRangeRefusal({ blockHash: HASH }, 10_000, head)).toBeNull();
    expect(await logsRangeRefusal({ fromBlock: 'earliest' }, 0, head)).toBeNull();
    expect(await logsRangeRefusal({ fromBlock: '0x10', toBlock: '0x1' }, 1, head)).toBeNull();
    expect(await logsRangeRefusal({ fromBlock: 'earliest' }, 10, async () => undefined)).toBeNull();
    // Forms some nodes accept are read too: leading zeros, a JSON number, EIP-1898's object.
    const wide = RpcMessages.logsRangeTooLarge(1n, 20_000n, 10_000);
    expect(await logsRangeRefusal({ fromBlock: '0x0001', toBlock: '0x4e20' }, 10_000, head)).toBe(wide);
    expect(await logsRangeRefusal({ fromBlock: 1, toBlock: 20_000 }, 10_000, head)).toBe(wide);
    expect(await logsRangeRefusal({ fromBlock: { blockNumber: '0x1' }, toBlock: '0x4e20' }, 10_000, head)).toBe(wide);
  });

  it('refuses an answer of more logs than the limit', () => {
    expect(logsCountRefusal([1, 2, 3], 3)).toBeNull();
    expect(logsCountRefusal([1, 2, 3, 4], 3)).toBe(RpcMessages.logsTooMany(3));
    expect(logsCountRefusal([1, 2, 3, 4], 0)).toBeNull();
  });
});
