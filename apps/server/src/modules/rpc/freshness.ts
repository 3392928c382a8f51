/**
 * Which answers the gateway may keep (docs/api.md "Caching and limits"): an answer is cached only
 * when it cannot change, i.e. it is one of the network's constants, or it is pinned to a block at
 * least the network's confirmation depth below the head. A call that names a tag (`latest`,
 * `pending`, `safe`, `finalized`, `earliest`), a block hash for state, or no block at all follows the
 * head and is never cached; neither are errors nor empty answers (a node behind the others answers
 * `null` or `[]` for a block it has not seen yet).
 */
export type Freshness =
  /** Follows the head, or has effects. */
  | { kind: 'never' }
  /** The network's own constants. */
  | { kind: 'constant' }
  /** Pinned to a block number: kept once that block is deep enough. */
  | { kind: 'at-block'; block: bigint }
  /** Looked up by hash: the answer names its block (`number`, `blockNumber`), kept once that one is deep enough. */
  | { kind: 'in-answer' };

const NEVER: Freshness = { kind: 'never' };
const CONSTANT: Freshness = { kind: 'constant' };
const IN_ANSWER: Freshness = { kind: 'in-answer' };

const QUANTITY = /^0x(0|[1-9a-f][0-9a-f]{0,15})$/i;

/** A block number as a call names it: a hex quantity, or EIP-1898's `{ blockNumber }`; tags and hashes give none. */
export function blockNumberOf(param: unknown): bigint | null {
  if (typeof param === 'string') return QUANTITY.test(param) ? BigInt(param) : null;
  if (param && typeof param === 'object' && !Array.isArray(param)) {
    const keys = Object.keys(param);
    const number = (param as { blockNumber?: unknown }).blockNumber;
    if (keys.length === 1 && typeof number === 'string' && QUANTITY.test(number)) return BigInt(number);
  }
  return null;
}

/** Calls whose answer is the state or data at the block their parameter at this index names. */
const AT_BLOCK_PARAM: Record<string, number> = {
  eth_getBlockByNumber: 0,
  eth_getBlockTransactionCountByNumber: 0,
  eth_getTransactionByBlockNumberAndIndex: 0,
  eth_getUncleCountByBlockNumber: 0,
  eth_getUncleByBlockNumberAndIndex: 0,
  eth_getBlockReceipts: 0,
  eth_getBalance: 1,
  eth_getCode: 1,
  eth_getTransactionCount: 1,
  eth_call: 1,
  eth_getStorageAt: 2,
  eth_getProof: 2,
};

/** Calls by hash whose answer carries the block it is in. */
const BY_HASH = new Set([
  'eth_getBlockByHash',
  'eth_getTransactionByHash',
  'eth_getTransactionReceipt',
  'eth_getTransactionByBlockHashAndIndex',
]);

export function freshnessOf(method: string, params: unknown): Freshness {
  if (method === 'eth_chainId' || method === 'net_version') return CONSTANT;
  const list = Array.isArray(params) ? params : [];
  if (BY_HASH.has(method)) return typeof list[0] === 'string' ? IN_ANSWER : NEVER;
  if (method === 'eth_getLogs') return logsFreshness(list[0]);
  const index = AT_BLOCK_PARAM[method];
  if (index === undefined || list.length <= index) return NEVER;
  // eth_getBlockReceipts also takes a block hash: its receipts name their block.
  if (method === 'eth_getBlockReceipts' && typeof list[0] === 'string' && list[0].length === 66) return IN_ANSWER;
  const block = blockNumberOf(list[index]);
  return block === null ? NEVER : { kind: 'at-block', block };
}

/** eth_getLogs: a range of block numbers (both ends named: a missing end means `latest`), or one block by hash. */
function logsFreshness(filter: unknown): Freshness {
  if (!filter || typeof filter !== 'object' || Array.isArray(filter)) return NEVER;
  const { fromBlock, toBlock, blockHash } = filter as Record<string, unknown>;
  if (blockHash !== undefined) return typeof blockHash === 'string' ? IN_ANSWER : NEVER;
  const from = blockNumberOf(fromBlock);
  const to = blockNumberOf(toBlock);
  return from === null || to === null || from > to ? NEVER : { kind: 'at-block', block: to };
}

const numberIn = (value: unknown, field: 'number' | 'blockNumber'): bigint | null => {
  const found = (value as Record<string, unknown> | null)?.[field];
  return typeof found === 'string' && QUANTITY.test(found) ? BigInt(found) : null;
};

/**
 * The block an answer by hash is in: a block's `number`, a transaction's or receipt's `blockNumber`,
 * the newest of a list's; null when the answer is empty or pending (a transaction not yet in a block).
 */
export function answerBlock(result: unknown): bigint | null {
  if (Array.isArray(result)) {
    let newest: bigint | null = null;
    for (const item of result) {
      const block = numberIn(item, 'blockNumber');
      if (block === null) return null;
      if (newest === null || block > newest) newest = block;
    }
    return newest;
  }
  if (!result || typeof result !== 'object') return null;
  return numberIn(result, 'blockNumber') ?? numberIn(result, 'number');
}

/** An answer that may only mean "not there yet" on a node that lags: never kept. */
export const isEmptyAnswer = (result: unknown): boolean =>
  result === null ||
  result === undefined ||
  result === '0x' ||
  (Array.isArray(result) && result.length === 0) ||
  (typeof result === 'object' && Object.keys(result).length === 0);

/**
 * Whether an answer may be kept, given the newest block deep enough to trust (undefined while the
 * network's head is not known).
 */
export function mayKeep(freshness: Freshness, result: unknown, finalBlock: bigint | undefined): boolean {
  if (freshness.kind === 'never' || isEmptyAnswer(result)) return false;
  if (freshness.kind === 'constant') return true;
  if (finalBlock === undefined) return false;
  const block = freshness.kind === 'at-block' ? freshness.block : answerBlock(result);
  return block !== null && block <= finalBlock;
}
