import { RpcMessages } from '@ebs/contract';
import { describe, expect, it, vi } from 'vitest';
import { type LogFilter, logsRangeRefusal, readLogFilter } from './logs-guard.ts';

const HASH = `0x${'ab'.repeat(32)}`;
const ADDRESS = `0x${'12'.repeat(20)}`;
const TOPIC = `0x${'cd'.repeat(32)}`;
const MAX = 10_000;
const HEAD = 20_000n;
const head = async () => HEAD;
const KELVIN = '\u212a';
/** 0x5f5e100: a hundred million blocks, far past the limit. */
const HUGE = '0x5f5e100';
const tooLarge = (from: bigint, to: bigint) => RpcMessages.logsRangeTooLarge(from, to, MAX);

function filterOf(value: unknown): LogFilter {
  const reading = readLogFilter(value);
  if (!('filter' in reading)) throw new Error(`expected a filter, got ${JSON.stringify(reading)}`);
  return reading.filter;
}

/** What the gateway answers a filter with: a refusal of either kind, or null when it goes to the node. */
async function verdict(value: unknown, headOf: () => Promise<bigint | undefined> = head): Promise<string | null> {
  const reading = readLogFilter(value);
  return 'refusal' in reading ? reading.refusal : logsRangeRefusal(reading.filter, MAX, headOf);
}

describe('reading an eth_getLogs filter as a Go node does', () => {
  it('refuses a huge range whose blockHash is null, which a Go node reads as no hash', async () => {
    const value = { fromBlock: '0x0', toBlock: HUGE, blockHash: null };
    expect(filterOf(value)).toEqual({ fromBlock: '0x0', toBlock: HUGE });
    expect(await verdict(value)).toBe(tooLarge(0n, 100_000_000n));
    expect(await logsRangeRefusal({ fromBlock: '0x0', toBlock: HUGE, blockHash: null }, MAX, head)).toBe(
      tooLarge(0n, 100_000_000n),
    );
  });

  it('refuses blockHash together with fromBlock or toBlock, under any spelling', () => {
    expect(RpcMessages.logsBlockHashWithRange).toBe('blockHash cannot be combined with fromBlock or toBlock');
    for (const value of [
      { blockHash: HASH, fromBlock: '0x0' },
      { blockHash: HASH, toBlock: 'latest' },
      { BLOCKHASH: HASH, FROMBLOCK: '0x1' },
      { [`bloc${KELVIN}hash`]: HASH, toblock: '0x1' },
      { blockHaſh: HASH, fromBlock: '0x1' },
    ]) {
      expect(readLogFilter(value)).toEqual({ refusal: RpcMessages.logsBlockHashWithRange });
    }
  });

  it('refuses a huge range under every spelling a Go node folds to fromBlock or toBlock', async () => {
    const fromSpellings = [
      'FROMBLOCK',
      'FromBlock',
      'fromblock',
      'froMBlock',
      `fromBloc${KELVIN}`,
      `FROMBLOC${KELVIN}`,
    ];
    const toSpellings = ['TOBLOCK', 'ToBlock', 'toblock', 'tOBlOcK', `tobloc${KELVIN}`];
    for (const from of fromSpellings) {
      expect(await verdict({ [from]: '0x0', toBlock: 'latest' })).toBe(tooLarge(0n, HEAD));
      for (const to of toSpellings) {
        expect(filterOf({ [from]: '0x0', [to]: HUGE })).toEqual({ fromBlock: '0x0', toBlock: HUGE });
        expect(await verdict({ [from]: '0x0', [to]: HUGE })).toBe(tooLarge(0n, 100_000_000n));
      }
    }
    for (const hashKey of ['BLOCKHASH', 'BlockHash', `blocKhash`.replace('K', KELVIN), 'blockhaſh']) {
      expect(await verdict({ fromBlock: '0x0', toBlock: HUGE, [hashKey]: null })).toBe(tooLarge(0n, 100_000_000n));
    }
  });

  it('resolves duplicate spellings as Go does: the last one wins, and a last null leaves the field out', async () => {
    expect(filterOf({ fromBlock: '0x100', FromBlock: '0x0' })).toEqual({ fromBlock: '0x0' });
    expect(filterOf({ FromBlock: '0x0', fromBlock: '0x100' })).toEqual({ fromBlock: '0x100' });
    expect(await verdict({ fromBlock: '0x4e00', FROMBLOCK: '0x0' })).toBe(tooLarge(0n, HEAD));
    expect(await verdict({ FROMBLOCK: '0x0', fromBlock: '0x4e00' })).toBeNull();
    expect(filterOf({ toBlock: '0x10', TOBLOCK: null })).toEqual({});
    expect(filterOf({ TOBLOCK: null, toBlock: '0x10' })).toEqual({ toBlock: '0x10' });
    // A hash given then taken back by a null: the range is read and checked.
    expect(await verdict({ blockHash: HASH, BlockHash: null, fromBlock: '0x0' })).toBe(tooLarge(0n, HEAD));
    expect(readLogFilter({ BlockHash: null, blockHash: HASH, fromBlock: '0x0' })).toEqual({
      refusal: RpcMessages.logsBlockHashWithRange,
    });
    expect(filterOf({ address: ADDRESS, ADDREſS: null, topicſ: [TOPIC], topics: [] })).toEqual({ topics: [] });
  });

  it('keeps only the five fields, under their own names, so nothing unread reaches the node', () => {
    expect(
      filterOf({
        fromBlock: '0x1',
        from_block: '0x0',
        fromBlocks: '0x0',
        'fromBlock ': '0x0',
        extra: { fromBlock: '0x0' },
        ADDREſS: ADDRESS,
        TOPICS: [TOPIC],
      }),
    ).toEqual({ fromBlock: '0x1', address: ADDRESS, topics: [TOPIC] });
  });

  it('passes an in-limit range, its rebuilt filter equal to what was sent', async () => {
    const value = { fromBlock: '0x10', toBlock: '0x271f', address: [ADDRESS], topics: [[TOPIC], null] };
    expect(filterOf(value)).toEqual(value);
    expect(await verdict(value)).toBeNull();
    expect(await verdict({ blockHash: HASH, address: ADDRESS })).toBeNull();
    expect(filterOf({ blockHash: HASH })).toEqual({ blockHash: HASH });
  });

  it('resolves tags, in any case, and missing ends through the head', async () => {
    const headOf = vi.fn(head);
    expect(await verdict({ fromBlock: 'earliest' }, headOf)).toBe(tooLarge(0n, HEAD));
    expect(headOf).toHaveBeenCalled();
    expect(await verdict({ fromBlock: 'EARLIEST', toBlock: 'Latest' })).toBe(tooLarge(0n, HEAD));
    for (const tag of ['latest', 'pending', 'safe', 'finalized']) {
      expect(await verdict({ fromBlock: '0x0', toBlock: tag })).toBe(tooLarge(0n, HEAD));
    }
    expect(await verdict({ fromBlock: '0x4650' })).toBeNull();
    expect(await verdict({})).toBeNull();
    // An unknown head cannot be worked out here: the node answers.
    expect(await verdict({ fromBlock: 'earliest' }, async () => undefined)).toBeNull();
  });

  it('reads bounds in every form some node accepts, however long or wide', async () => {
    const wide = tooLarge(1n, HEAD);
    expect(await verdict({ fromBlock: '0x0001', toBlock: '0x4e20' })).toBe(wide);
    expect(await verdict({ fromBlock: `0x${'0'.repeat(100)}1`, toBlock: '0x4e20' })).toBe(wide);
    expect(await verdict({ fromBlock: '0X1', toBlock: '0x4E20' })).toBe(wide);
    expect(await verdict({ fromBlock: 1, toBlock: 20_000 })).toBe(wide);
    expect(await verdict({ fromBlock: 0, toBlock: 1e20 })).toBe(tooLarge(0n, BigInt(1e20)));
  });

  it('reads EIP-1898 bounds under any spelling of blockNumber, and sends them with that one key', async () => {
    expect(await verdict({ fromBlock: { BLOCKNUMBER: '0x0' }, toBlock: 'latest' })).toBe(tooLarge(0n, HEAD));
    expect(filterOf({ fromBlock: { BLOCKNUMBER: '0x0' }, toBlock: 'latest' })).toEqual({
      fromBlock: { blockNumber: '0x0' },
      toBlock: 'latest',
    });
    expect(await verdict({ fromBlock: { blockNumber: '0x1' }, toBlock: '0x4e20' })).toBe(tooLarge(1n, HEAD));
    expect(await verdict({ fromBlock: { blocknumber: 'earliest' } })).toBe(tooLarge(0n, HEAD));
    expect(await verdict({ fromBlock: { [`BLOC${KELVIN}NUMBER`]: '0x0' } })).toBe(tooLarge(0n, HEAD));
    expect(filterOf({ fromBlock: { blockNumber: '0x4e00', BlockNumber: '0x0', requireCanonical: true } })).toEqual({
      fromBlock: { blockNumber: '0x0' },
    });
    expect(filterOf({ fromBlock: { BlockNumber: '0x0', blockNumber: '0x4e00' } })).toEqual({
      fromBlock: { blockNumber: '0x4e00' },
    });
  });

  it('refuses a bound it cannot read, a block by hash among them, rather than let a node guess', () => {
    for (const bound of [
      '0xzz',
      '0x',
      '100',
      ' 0x1',
      -1,
      1.5,
      true,
      [],
      {},
      { blockHash: HASH },
      { blockNumber: null },
    ]) {
      expect(readLogFilter({ fromBlock: bound })).toEqual({ refusal: RpcMessages.logsUnreadableBound('fromBlock') });
      expect(readLogFilter({ toBlock: bound })).toEqual({ refusal: RpcMessages.logsUnreadableBound('toBlock') });
    }
  });

  it('refuses a filter that is not an object, as Go nodes do, so that none reaches the node unread', () => {
    for (const value of [[{ fromBlock: '0x0' }], 'latest', 1, null, undefined]) {
      expect(readLogFilter(value)).toEqual({ refusal: RpcMessages.logsFilterNotObject });
    }
  });

  it('checks no range when the limit is off', async () => {
    expect(await logsRangeRefusal(filterOf({ fromBlock: '0x0', toBlock: HUGE }), 0, head)).toBeNull();
  });
});
