import { RpcErrorCodes, RpcMessages } from '@ebs/contract';

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

const isRequestObject = (value: unknown): value is { jsonrpc: string; method: string; id?: unknown } =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  (value as { jsonrpc?: unknown }).jsonrpc === '2.0' &&
  typeof (value as { method?: unknown }).method === 'string';

const idOf = (value: unknown): RpcId => {
  const id = (value as { id?: unknown } | null)?.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
};

/**
 * Checks a JSON-RPC 2.0 body (one request object, or a non-empty batch of them) and returns how
 * many calls it holds: each call of a batch is metered as one request.
 */
export function parseRpcBody(text: unknown, maxBatch: number): { calls: number; id: RpcId } {
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
    return { calls: value.length, id: null };
  }
  if (!isRequestObject(value)) {
    throw new RpcRefusal(400, RpcErrorCodes.invalidRequest, RpcMessages.notJsonRpc, idOf(value));
  }
  return { calls: 1, id: idOf(value) };
}
