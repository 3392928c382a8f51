import { MULTICALL3_ADDRESS } from '@ebs/contract';
import { toFunctionSelector } from 'viem';

const MULTICALL3 = MULTICALL3_ADDRESS.toLowerCase();

/** Multicall3 calling Multicall3 is read this many levels deep; a call nested deeper is refused. */
const MAX_DEPTH = 3;

const selector = (signature: string) => Number.parseInt(toFunctionSelector(signature).slice(2), 16);

/**
 * The Multicall3 functions that call other contracts, each with a list of calls among its
 * arguments: which argument holds the list, how many words each call's head holds, and which of
 * those words points at the call's calldata (its target is always the first).
 */
const CALL_LISTS = new Map(
  (
    [
      ['aggregate((address,bytes)[])', 0, 2, 1],
      ['tryAggregate(bool,(address,bytes)[])', 1, 2, 1],
      ['blockAndAggregate((address,bytes)[])', 0, 2, 1],
      ['tryBlockAndAggregate(bool,(address,bytes)[])', 1, 2, 1],
      ['aggregate3((address,bool,bytes)[])', 0, 3, 2],
      ['aggregate3Value((address,bool,uint256,bytes)[])', 0, 4, 3],
    ] as const
  ).map(([signature, listArgument, headWords, calldataWord]) => [
    selector(signature),
    { listArgument, headWords, calldataWord },
  ]),
);

/** The Multicall3 functions that read the chain and call no contract. */
const VIEWS = new Set(
  [
    'getBasefee()',
    'getBlockHash(uint256)',
    'getBlockNumber()',
    'getChainId()',
    'getCurrentBlockCoinbase()',
    'getCurrentBlockDifficulty()',
    'getCurrentBlockGasLimit()',
    'getCurrentBlockTimestamp()',
    'getEthBalance(address)',
    'getLastBlockHash()',
  ].map(selector),
);

/** What a node takes as bytes in JSON: 0x and whole bytes in hex. */
const HEX_BYTES = /^0[xX](?:[0-9a-fA-F]{2})*$/;

/** An ABI word read as an offset or a length: null past the end, or too large to be one. */
function uint(data: Buffer, at: number): number | null {
  if (at + 32 > data.length) return null;
  for (let i = at; i < at + 28; i++) if (data[i] !== 0) return null;
  return data.readUInt32BE(at + 28);
}

/** An ABI word read as an address: null past the end, or with bits above its 20 bytes. */
function address(data: Buffer, at: number): string | null {
  if (at + 32 > data.length) return null;
  for (let i = at; i < at + 12; i++) if (data[i] !== 0) return null;
  return `0x${data.toString('hex', at + 12, at + 32)}`;
}

/**
 * Appends the targets of one Multicall3 call's calldata to `targets`, reading the calls of each
 * inner call to Multicall3 in turn; false when the calldata is not a Multicall3 call that can be
 * checked. Inner calldata is read in place, never copied.
 */
function readCalls(data: Buffer, depth: number, targets: string[], budget: { calls: number }): boolean {
  if (data.length < 4) return false;
  const called = data.readUInt32BE(0);
  if (VIEWS.has(called)) return true;
  const list = CALL_LISTS.get(called);
  if (!list) return false;
  // Offsets count from the arguments (past the selector), a call's from its list, its calldata's
  // from its head: as Solidity reads them.
  const listOffset = uint(data, 4 + 32 * list.listArgument);
  if (listOffset === null) return false;
  const lengthAt = 4 + listOffset;
  const length = uint(data, lengthAt);
  if (length === null || length > budget.calls) return false;
  budget.calls -= length;
  const heads = lengthAt + 32;
  for (let i = 0; i < length; i++) {
    const headOffset = uint(data, heads + 32 * i);
    if (headOffset === null) return false;
    const head = heads + headOffset;
    if (head + 32 * list.headWords > data.length) return false;
    const target = address(data, head);
    const calldataOffset = uint(data, head + 32 * list.calldataWord);
    if (target === null || calldataOffset === null) return false;
    const calldataLength = uint(data, head + calldataOffset);
    const start = head + calldataOffset + 32;
    if (calldataLength === null || start + calldataLength > data.length) return false;
    targets.push(target);
    if (target === MULTICALL3) {
      if (depth >= MAX_DEPTH) return false;
      if (!readCalls(data.subarray(start, start + calldataLength), depth + 1, targets, budget)) return false;
    }
  }
  return true;
}

/**
 * The contracts (lower case) that a call to Multicall3 with this calldata calls, those of nested
 * Multicall3 calls among them; an empty list for its functions that call none; null when the
 * calldata is not a Multicall3 call, nests too deep, or is not one a node would read as bytes.
 */
export function multicall3Targets(calldata: unknown): string[] | null {
  if (typeof calldata !== 'string' || !HEX_BYTES.test(calldata)) return null;
  const data = Buffer.from(calldata.slice(2), 'hex');
  const targets: string[] = [];
  // An encoding may point many calls at the same bytes (and each at a nested call with as many):
  // reading at most one call per word of the calldata keeps the work to its size, and fits
  // every encoding that does not.
  return readCalls(data, 1, targets, { calls: data.length >> 5 }) ? targets : null;
}
