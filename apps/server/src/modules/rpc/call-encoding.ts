import type { RpcCall } from './rpc-request.ts';

/** An id a merged call goes upstream with as it is: the first caller's answer then needs no rewriting. */
export const plainId = (id: unknown): boolean =>
  (typeof id === 'number' && Number.isSafeInteger(id)) || (typeof id === 'string' && id.length <= 64);

/** What identical calls share, their method and params (as JSON) as the gateway read them: the merge's and the cache's key. */
export const sharedKey = (method: string, paramsJson: string | undefined) => `${method}\n${paramsJson ?? 'null'}`;

export const keyOf = (method: string, params: unknown) =>
  sharedKey(method, params === undefined ? undefined : JSON.stringify(params));

/** A call in the gateway's own encoding: its method and params (as JSON, when it has any) under `id`. */
export const encoded = (method: string, id: unknown, paramsJson: string | undefined): string =>
  `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":${JSON.stringify(method)}${paramsJson === undefined ? '' : `,"params":${paramsJson}`}}`;

/** A call in the gateway's own encoding: its method and params as the gateway read them, under `id`. */
export function encodeCall(call: RpcCall, id: unknown, params: unknown = call.params): string {
  const hasParams = params !== undefined || Object.hasOwn(call, 'params');
  return encoded(call.method, id, hasParams ? JSON.stringify(params) : undefined);
}
