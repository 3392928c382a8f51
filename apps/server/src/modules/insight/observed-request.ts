/** Who made a request whose key the gateway accepted, and from where. */
export interface Observer {
  accountId: string;
  apiKeyId: string;
  /** The network's path. */
  network: string;
  clientIp: string;
  origin: string | undefined;
}

/** A method name as figures and the request log keep it; anything else is counted as INVALID_METHOD. */
const METHOD_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
export const INVALID_METHOD = '(invalid)';

export function methodName(method: unknown): string {
  return typeof method === 'string' && METHOD_NAME.test(method) ? method : INVALID_METHOD;
}
