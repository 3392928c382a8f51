import type { RpcCacheRule } from '@ebs/contract';

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

/**
 * How long a call's answer stays true, by its method's cache rule in the table of methods
 * (docs/api.md "Methods"); `params` are the ones the gateway sends (a logs filter as it read it).
 */
export function freshnessOf(cache: RpcCacheRule, params: unknown): Freshness {
  if (cache === 'never') return NEVER;
  if (cache === 'constant') return CONSTANT;
  const list = Array.isArray(params) ? params : [];
  if (cache === 'in-answer') return typeof list[0] === 'string' ? IN_ANSWER : NEVER;
  if (cache === 'logs') return logsFreshness(list[0]);
  if (list.length <= cache.blockParam) return NEVER;
  const at = list[cache.blockParam];
  // eth_getBlockReceipts also takes a block hash: its receipts name their block.
  if (cache.orHash && typeof at === 'string' && at.length === 66) return IN_ANSWER;
  const block = blockNumberOf(at);
  return block === null ? NEVER : { kind: 'at-block', block };
}

/**
 * eth_getLogs, its filter as the gateway read it (canonical keys, null values left out): a range of
 * block numbers (both ends named: a missing end means `latest`), or one block by hash.
 */
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
