import { goJsonKey, RpcMessages } from '@ebs/contract';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The value a Go node reads for each field: encoding/json sets a field once per key that folds to
 * its name, so the last such key wins, and a null sets a pointer field back to nil (absent). Keys
 * folding to no field are not read at all.
 */
function readAsGo<Field extends string>(
  object: Record<string, unknown>,
  fields: readonly Field[],
): Partial<Record<Field, unknown>> {
  const byFold = new Map<string, Field>(fields.map((field) => [goJsonKey(field), field]));
  const read: Partial<Record<Field, unknown>> = {};
  for (const [key, value] of Object.entries(object)) {
    const field = byFold.get(goJsonKey(key));
    if (field !== undefined) read[field] = value;
  }
  for (const field of fields) if (read[field] === null) delete read[field];
  return read;
}

/** A bound the guard has read: sent on as the caller wrote it, an EIP-1898 object with its one key. */
export type LogBound = string | number | { blockNumber: string | number };

/** The filter the gateway checks and then sends to the node in place of the caller's. */
export interface LogFilter {
  fromBlock?: LogBound;
  toBlock?: LogBound;
  blockHash?: unknown;
  address?: unknown;
  topics?: unknown;
}

/** `filter`: check its range, then send it in place of the caller's. `refusal`: answer -32602 with it. */
export type LogFilterReading = { filter: LogFilter } | { refusal: string };

const FILTER_FIELDS = ['fromBlock', 'toBlock', 'blockHash', 'address', 'topics'] as const;
const HEAD_TAGS = new Set(['latest', 'pending', 'safe', 'finalized']);

/**
 * An eth_getLogs / eth_newFilter filter as a Go node reads it, rebuilt with one key per field.
 * Sending the rebuilt filter, never the caller's bytes, means the node runs the range that was
 * checked even where it reads keys otherwise (exact case only, the first of two wins) or where
 * JSON.parse already merged an exact duplicate (it keeps the first key's place, the last value).
 * A bound the guard cannot read is refused rather than passed on: some node might read it as a block.
 * So is a filter that is not an object: Go nodes refuse it too, with the same code, all but null,
 * which they read as the head block alone, a filter no client needs.
 */
export function readLogFilter(value: unknown): LogFilterReading {
  if (!isObject(value)) return { refusal: RpcMessages.logsFilterNotObject };
  const read = readAsGo(value, FILTER_FIELDS);
  if (read.blockHash !== undefined && (read.fromBlock !== undefined || read.toBlock !== undefined)) {
    return { refusal: RpcMessages.logsBlockHashWithRange };
  }
  const filter: LogFilter = {};
  for (const field of ['fromBlock', 'toBlock'] as const) {
    if (read[field] === undefined) continue;
    const bound = canonicalBound(read[field]);
    if (bound === null) return { refusal: RpcMessages.logsUnreadableBound(field) };
    filter[field] = bound;
  }
  for (const field of ['blockHash', 'address', 'topics'] as const) {
    if (read[field] !== undefined) filter[field] = read[field];
  }
  return { filter };
}

function canonicalBound(bound: unknown): LogBound | null {
  if (boundOf(bound) === null) return null;
  if (isObject(bound)) return { blockNumber: readAsGo(bound, ['blockNumber']).blockNumber as string | number };
  return bound as string | number;
}

type Bound = { block: bigint } | { tag: 'earliest' | 'head' };

/**
 * A bound as any node might read it: a hex number with or without leading zeros, a tag in any case,
 * EIP-1898's `{ blockNumber }` under any spelling Go accepts, or a JSON number. Stricter parsing
 * would refuse a form one node accepts; a huge number only makes the range refused.
 */
function boundOf(bound: unknown): Bound | null {
  const value = isObject(bound) ? readAsGo(bound, ['blockNumber']).blockNumber : bound;
  if (typeof value === 'string') {
    const tag = value.toLowerCase();
    if (tag === 'earliest') return { tag: 'earliest' };
    if (HEAD_TAGS.has(tag)) return { tag: 'head' };
    return /^0x[0-9a-f]+$/i.test(value) ? { block: BigInt(value) } : null;
  }
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return { block: BigInt(value) };
  return null;
}

/** The newest block, read when a range names a tag (`latest`, `safe`, …) or leaves an end out. */
type Head = () => Promise<bigint | undefined>;

/**
 * eth_getLogs' (and eth_newFilter's) block range past the limit (docs/api.md "Caching and limits"),
 * on the filter readLogFilter returned: the refusal's message, or null when the range is within it,
 * names one block by hash, or cannot be worked out here (the node then answers as it would).
 */
export async function logsRangeRefusal(filter: LogFilter, maxRange: number, head: Head): Promise<string | null> {
  return maxRange <= 0 ? null : rangeRefusal(await logsRange(filter, head), maxRange);
}

/** A range's blocks past the limit: the refusal's message, else null. */
export function rangeRefusal(range: BlockRange | null, maxRange: number): string | null {
  if (maxRange <= 0 || range === null) return null;
  const { from, to } = range;
  return to - from + 1n > BigInt(maxRange) ? RpcMessages.logsRangeTooLarge(from, to, maxRange) : null;
}

/** The blocks of a range, first and last. */
export interface BlockRange {
  from: bigint;
  to: bigint;
}

/** The number of blocks of a range (null: not worked out), for its price. */
export const blocksOf = (range: BlockRange | null): bigint | null => (range ? range.to - range.from + 1n : null);

/**
 * An eth_getLogs (or eth_newFilter) filter's blocks, its tags read against the head: null when it
 * names one block by hash or its range cannot be worked out here (an end unknown, or from past to).
 */
export async function logsRange(filter: LogFilter, head: Head): Promise<BlockRange | null> {
  // A null blockHash is no hash to a Go node: the range still applies.
  if (filter.blockHash !== undefined && filter.blockHash !== null) return null;
  const from = await resolve(filter.fromBlock, head);
  const to = await resolve(filter.toBlock, head);
  return from === null || to === null || from > to ? null : { from, to };
}

async function resolve(block: unknown, head: Head): Promise<bigint | null> {
  const bound = block === undefined ? { tag: 'head' as const } : boundOf(block);
  if (bound === null) return null;
  if ('block' in bound) return bound.block;
  return bound.tag === 'earliest' ? 0n : ((await head()) ?? null);
}

/** A log filter's blocks as made: `to` null while it follows the head (`latest`, or no end). */
export interface FilterRange {
  from: bigint;
  to: bigint | null;
}

/**
 * The blocks a new filter (eth_newFilter) will cover, its tags read now: eth_getFilterLogs later
 * scans from its `from` to the head, which the range guard then checks again. Null for a filter by
 * block hash, or when its range cannot be worked out (the head unknown).
 */
export async function filterRange(filter: LogFilter, head: Head): Promise<FilterRange | null> {
  if (filter.blockHash !== undefined && filter.blockHash !== null) return null;
  const from = await resolve(filter.fromBlock, head);
  if (from === null) return null;
  const bound = filter.toBlock === undefined ? { tag: 'head' as const } : boundOf(filter.toBlock);
  if (bound === null) return null;
  if ('block' in bound) return { from, to: bound.block };
  return { from, to: bound.tag === 'earliest' ? 0n : null };
}

/** eth_getFilterLogs of a filter of `range`: its blocks up to the head now, past the limit, or null. */
export async function filterLogsRefusal(range: FilterRange, maxRange: number, head: Head): Promise<string | null> {
  return maxRange <= 0 ? null : rangeRefusal(await filterLogsRange(range, head), maxRange);
}

/** The blocks eth_getFilterLogs scans for a filter of `range`: up to the head now (null: not worked out). */
export async function filterLogsRange(range: FilterRange, head: Head): Promise<BlockRange | null> {
  const to = range.to ?? (await head());
  return to === undefined || range.from > to ? null : { from: range.from, to };
}

/** More logs than the limit in an answer: the refusal's message, else null. */
export const logsCountRefusal = (result: unknown, maxResults: number): string | null =>
  maxResults > 0 && Array.isArray(result) && result.length > maxResults ? RpcMessages.logsTooMany(maxResults) : null;
