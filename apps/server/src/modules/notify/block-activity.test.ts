import { encodeAbiParameters, pad, toHex } from 'viem';
import { describe, expect, it } from 'vitest';
import {
  type ChainBlock,
  type ChainLog,
  logTransfers,
  matchBlock,
  TRANSFER_BATCH_TOPIC,
  TRANSFER_SINGLE_TOPIC,
  TRANSFER_TOPIC,
} from './block-activity.ts';

const A = `0x${'a'.repeat(40)}`;
const B = `0x${'b'.repeat(40)}`;
const C = `0x${'c'.repeat(40)}`;
const TOKEN = `0x${'d'.repeat(40)}`;
const word = (address: string) => pad(address as `0x${string}`, { size: 32 });
const log = (topics: string[], data: string, logIndex = 0, transactionIndex = 0): ChainLog => ({
  address: TOKEN,
  topics,
  data,
  logIndex: toHex(logIndex),
  transactionHash: `0x${String(transactionIndex).padStart(64, '0')}`,
  transactionIndex: toHex(transactionIndex),
});
const tx = (from: string, to: string | null, value: bigint, index: number) => ({
  hash: `0x${String(index).padStart(64, '0')}`,
  from,
  to,
  value: toHex(value),
  transactionIndex: toHex(index),
});
const block = (transactions: ChainBlock['transactions']): ChainBlock => ({
  number: '0x10',
  hash: `0x${'1'.repeat(64)}`,
  parentHash: `0x${'2'.repeat(64)}`,
  timestamp: '0x5',
  transactions,
});

describe('the transfers of a block', () => {
  it('reads each standard from its log, and nothing from a log that only shares the event name', () => {
    expect(logTransfers(log([TRANSFER_TOPIC, word(A), word(B)], toHex(5n, { size: 32 })))).toMatchObject([
      { category: 'ERC20', from: A, to: B, amount: 5n, tokenId: null, contract: TOKEN },
    ]);
    expect(logTransfers(log([TRANSFER_TOPIC, word(A), word(B), toHex(9n, { size: 32 })], '0x'))).toMatchObject([
      { category: 'ERC721', from: A, to: B, amount: 1n, tokenId: 9n },
    ]);
    const single = encodeAbiParameters([{ type: 'uint256' }, { type: 'uint256' }], [4n, 30n]);
    expect(logTransfers(log([TRANSFER_SINGLE_TOPIC, word(C), word(A), word(B)], single))).toMatchObject([
      { category: 'ERC1155', from: A, to: B, amount: 30n, tokenId: 4n },
    ]);
    const batch = encodeAbiParameters(
      [{ type: 'uint256[]' }, { type: 'uint256[]' }],
      [
        [1n, 2n],
        [10n, 20n],
      ],
    );
    expect(
      logTransfers(log([TRANSFER_BATCH_TOPIC, word(C), word(A), word(B)], batch)).map((t) => [t.tokenId, t.amount]),
    ).toEqual([
      [1n, 10n],
      [2n, 20n],
    ]);
    expect(logTransfers(log([TRANSFER_SINGLE_TOPIC, word(C), word(A), word(B)], '0x1234'))).toEqual([]);
    expect(logTransfers(log([TRANSFER_TOPIC, word(A)], '0x'))).toEqual([]);
  });

  it('groups what touches watched addresses by webhook, in block order, each transfer once per webhook', () => {
    const watchers = new Map([
      [A, ['w1']],
      [B, ['w1', 'w2']],
    ]);
    const matched = matchBlock(
      block([tx(C, A, 1n, 0), tx(A, B, 0n, 1), tx(C, C, 7n, 2), tx(A, null, 3n, 3), tx(B, A, 2n, 4)]),
      [log([TRANSFER_TOPIC, word(A), word(B)], toHex(5n, { size: 32 }), 3, 1)],
      (address) => watchers.get(address),
    );
    expect([...matched.keys()].sort()).toEqual(['w1', 'w2']);
    expect(matched.get('w1')?.map((t) => [t.category, t.txIndex, t.amount])).toEqual([
      ['NATIVE', 0, 1n],
      ['ERC20', 1, 5n],
      ['NATIVE', 4, 2n],
    ]);
    expect(matched.get('w2')?.map((t) => [t.category, t.txIndex])).toEqual([
      ['ERC20', 1],
      ['NATIVE', 4],
    ]);
  });
});
