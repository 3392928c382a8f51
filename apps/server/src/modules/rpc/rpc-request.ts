import { RpcErrorCodes, RpcMessages } from '@ebs/contract';
import type { Db } from '../../db/database.ts';
import type { MethodRun } from '../insight/index.ts';
import type { EnabledAccounts, KeyState } from '../keys/index.ts';

/** Of these accounts, those with a monthly spending cap, and the cap (decimal text): the accounts module's answer. */
export type SpendingCaps = (db: Db, accountIds: string[]) => Promise<Map<string, string>>;

/**
 * What the gateway asks of the accounts module, handed in by the composition root: which accounts
 * may be served (not suspended), and the suspension rule to run once counted usage is written.
 */
export interface GatewayAccounts {
  enabled: EnabledAccounts;
  refreshBillingStatus(db: Db, accountIds: string[]): Promise<unknown>;
  /** Of these accounts, those with a monthly spending cap, and the cap (decimal text). */
  spendingCaps: SpendingCaps;
}

/** Who a request is from, once its key is checked. */
export interface Caller {
  accountId: string;
  apiKeyId: string;
  /** The key as the cache holds it: its rules and limits. */
  key: KeyState;
}

/** A refusal the gateway answers with a JSON-RPC error object and an HTTP status. */
export class RpcRefusal extends Error {
  constructor(
    readonly httpStatus: number,
    readonly code: number,
    message: string,
    readonly id: string | number | null = null,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  body() {
    return { jsonrpc: '2.0' as const, id: this.id, error: { code: this.code, message: this.message } };
  }
}

type RpcId = string | number | null;

export interface RpcCall {
  jsonrpc: string;
  method: string;
  id?: unknown;
  params?: unknown;
}

export interface ParsedRpcBody {
  /** Each call of a batch is metered as one request. */
  calls: number;
  /** The id to answer a refusal of the whole body with: a single request's, null for a batch. */
  id: RpcId;
  batch: boolean;
  requests: RpcCall[];
  /**
   * The calls' methods in runs, read while the calls are at hand: what the gateway's insight counts
   * once the answer is out, without reading every call again.
   */
  methods: MethodRun[];
}

/** The methods of `calls` in runs of one method, in order. */
export function methodRuns(calls: ReadonlyArray<{ method: string }>): MethodRun[] {
  const runs: MethodRun[] = [];
  let last: MethodRun | undefined;
  for (const call of calls) {
    if (last?.method === call.method) last.calls += 1;
    else {
      last = { method: call.method, calls: 1 };
      runs.push(last);
    }
  }
  return runs;
}

const isRequestObject = (value: unknown): value is RpcCall =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  (value as { jsonrpc?: unknown }).jsonrpc === '2.0' &&
  typeof (value as { method?: unknown }).method === 'string';

export const idOf = (value: unknown): RpcId => {
  const id = (value as { id?: unknown } | null)?.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
};

/** Checks a JSON-RPC 2.0 body: one request object, or a non-empty batch of them. */
export function parseRpcBody(text: unknown, maxBatch: number): ParsedRpcBody {
  if (typeof text !== 'string' || text.trim() === '') {
    throw new RpcRefusal(400, RpcErrorCodes.parseError, RpcMessages.notJson);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new RpcRefusal(400, RpcErrorCodes.parseError, RpcMessages.notJson);
  }
  if (Array.isArray(value)) {
    if (value.length === 0 || !value.every(isRequestObject)) {
      throw new RpcRefusal(400, RpcErrorCodes.invalidRequest, RpcMessages.notJsonRpc);
    }
    if (value.length > maxBatch) {
      throw new RpcRefusal(400, RpcErrorCodes.invalidRequest, RpcMessages.batchTooLarge(maxBatch));
    }
    return { calls: value.length, id: null, batch: true, requests: value, methods: methodRuns(value) };
  }
  if (!isRequestObject(value)) {
    throw new RpcRefusal(400, RpcErrorCodes.invalidRequest, RpcMessages.notJsonRpc, idOf(value));
  }
  return { calls: 1, id: idOf(value), batch: false, requests: [value], methods: [{ method: value.method, calls: 1 }] };
}

export type RpcAnswer =
  | { jsonrpc: '2.0'; id: RpcId; result: unknown }
  | { jsonrpc: '2.0'; id: RpcId; error: { code: number; message: string } };

/**
 * The only fields a call takes upstream. Nodes written in Go (geth, Erigon) match JSON keys without
 * regard to case (`Method`, `METHOD`, even `ſ` for `s`), the last match winning, so a key the screen
 * ignores could name the method or the parameters the node runs.
 */
const FORWARDED_FIELDS = new Set(['jsonrpc', 'id', 'method', 'params']);

/** Whether a call carries only the fields that go upstream (its bytes may then go as sent). */
export const hasOnlyForwardedFields = (call: RpcCall): boolean => {
  for (const key in call) if (!FORWARDED_FIELDS.has(key)) return false;
  return true;
};

/** The call as the screen read it: its four fields and nothing else. */
export const screenedFields = (call: RpcCall): RpcCall => {
  const rebuilt: RpcCall = { jsonrpc: call.jsonrpc, method: call.method };
  if (Object.hasOwn(call, 'id')) rebuilt.id = call.id;
  if (Object.hasOwn(call, 'params')) rebuilt.params = call.params;
  return rebuilt;
};
