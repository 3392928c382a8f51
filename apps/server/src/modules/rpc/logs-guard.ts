import { RpcMessages } from '@ebs/contract';

/**
 * A bound as any node might read it: a hex number with or without leading zeros, an EIP-1898
 * `{ blockNumber }`, or a JSON number. Stricter parsing would let a form one node accepts past the
 * guard; a huge number only makes the range refused.
 */
function boundOf(block: unknown): bigint | null {
  const value = block && typeof block === 'object' ? (block as { blockNumber?: unknown }).blockNumber : block;
  if (typeof value === 'string' && /^0x[0-9a-f]{1,64}$/i.test(value)) return BigInt(value);
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  return null;
}

/** The newest block, read when a range names a tag (`latest`, `safe`, …) or leaves an end out. */
type Head = () => Promise<bigint | undefined>;

/**
 * eth_getLogs' (and eth_newFilter's) block range past the limit (docs/api.md "Caching and limits"): the refusal's message,
 * or null when the range is within it, names one block by hash, or cannot be worked out here (the
 * node then answers as it would).
 */
export async function logsRangeRefusal(filter: unknown, maxRange: number, head: Head): Promise<string | null> {
  if (maxRange <= 0 || !filter || typeof filter !== 'object' || Array.isArray(filter)) return null;
  const { fromBlock, toBlock, blockHash } = filter as Record<string, unknown>;
  if (blockHash !== undefined) return null;
  const from = await resolve(fromBlock, head);
  const to = await resolve(toBlock, head);
  if (from === null || to === null || from > to) return null;
  return to - from + 1n > BigInt(maxRange) ? RpcMessages.logsRangeTooLarge(from, to, maxRange) : null;
}

async function resolve(block: unknown, head: Head): Promise<bigint | null> {
  if (block === 'earliest') return 0n;
  if (block === undefined || block === 'latest' || block === 'pending' || block === 'safe' || block === 'finalized') {
    return (await head()) ?? null;
  }
  return boundOf(block);
}

/** More logs than the limit in an answer: the refusal's message, else null. */
export const logsCountRefusal = (result: unknown, maxResults: number): string | null =>
  maxResults > 0 && Array.isArray(result) && result.length > maxResults ? RpcMessages.logsTooMany(maxResults) : null;
