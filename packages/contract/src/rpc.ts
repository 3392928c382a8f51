import { type Static, Type } from '@sinclair/typebox';

/** spec B §8: the RPC base path of the gateway. */
export const RPC_BASE_PATH = '/api/v1.0/rpc';

/**
 * spec B §2, §3: the ten RPC networks, their path suffix, display name, the usage resource their
 * calls are billed under, the chain id their nodes answer with (docs/decisions.md), and about how
 * many seconds a block takes (a head older than three is a degraded network).
 */
export const RPC_NETWORKS = [
  {
    path: 'ethereum/mainnet',
    name: 'Ethereum Mainnet',
    resource: 'RPC_API_ETHEREUM_MAINNET',
    chainId: 1,
    blockSeconds: 12,
  },
  {
    path: 'ethereum/sepolia',
    name: 'Ethereum Sepolia',
    resource: 'RPC_API_ETHEREUM_TESTNET',
    chainId: 11155111,
    blockSeconds: 12,
  },
  { path: 'bsc/mainnet', name: 'BSC Mainnet', resource: 'RPC_API_BSC_MAINNET', chainId: 56, blockSeconds: 3 },
  { path: 'bsc/testnet', name: 'BSC Testnet', resource: 'RPC_API_BSC_TESTNET', chainId: 97, blockSeconds: 3 },
  {
    path: 'polygon/mainnet',
    name: 'Polygon Mainnet',
    resource: 'RPC_API_POLYGON_MAINNET',
    chainId: 137,
    blockSeconds: 2,
  },
  {
    path: 'polygon/amoy',
    name: 'Polygon Testnet',
    resource: 'RPC_API_POLYGON_TESTNET',
    chainId: 80002,
    blockSeconds: 2,
  },
  {
    path: 'metabit/mainnet',
    name: 'Metabit Mainnet',
    resource: 'RPC_API_METABIT_MAINNET',
    chainId: 62000,
    blockSeconds: 3,
  },
  {
    path: 'metabit/testnet',
    name: 'Metabit Testnet',
    resource: 'RPC_API_METABIT_TESTNET',
    chainId: 62001,
    blockSeconds: 3,
  },
  {
    path: 'aurora/mainnet',
    name: 'Aurora Mainnet',
    resource: 'RPC_API_AURORA_MAINNET',
    chainId: 1313161554,
    blockSeconds: 1,
  },
  {
    path: 'aurora/testnet',
    name: 'Aurora Testnet',
    resource: 'RPC_API_AURORA_TESTNET',
    chainId: 1313161555,
    blockSeconds: 1,
  },
] as const;

export type RpcNetwork = (typeof RPC_NETWORKS)[number];
export type RpcNetworkPath = RpcNetwork['path'];

export const findRpcNetwork = (path: string): RpcNetwork | undefined =>
  RPC_NETWORKS.find((network) => network.path === path);

/**
 * Multicall3 (github.com/mds1/multicall), at this address on the public EVM networks: one call to it
 * runs calls to any other contracts, so a key locked to contracts has its inner calls checked.
 */
export const MULTICALL3_ADDRESS = '0xcA11bde05977b3631167028862bE2a173976CA11';

/**
 * A JSON key as a node written in Go matches a field (encoding/json): without regard to case, and
 * with the Unicode letters that fold to ASCII ones (ſ to s, the Kelvin sign to k), so `{"TO": …}` or
 * `{"addreſs": …}` reaches the node as `to` or `address`, and the gateway must read it as one.
 */
export const goJsonKey = (key: string): string =>
  key
    .toLowerCase()
    .replace(/ſ/g, 's')
    .replace(/\u212a/g, 'k');

/** The two names a key travels under, as query parameters or as headers. */
export const API_KEY_ID_PARAM = 'x-api-key-id';
export const API_KEY_PARAM = 'x-api-key';

/** The gateway's path: a network path of two parts, e.g. ethereum/mainnet. */
export const RpcNetworkParams = Type.Object({
  chain: Type.String({ description: 'the first part of the network path, e.g. ethereum' }),
  net: Type.String({ description: 'the second part, e.g. mainnet or sepolia' }),
});

/** Documented, never refused by the schema: the gateway answers a missing key with its own JSON-RPC error. */
export const RpcQuery = Type.Object({
  [API_KEY_ID_PARAM]: Type.Optional(Type.String({ description: 'the API key id' })),
  [API_KEY_PARAM]: Type.Optional(Type.String({ description: 'the API key' })),
});

/** spec B §2: what the RPC page shows in place of an empty input. */
export const API_KEY_ID_PLACEHOLDER = '[API_KEY_ID]';
export const API_KEY_PLACEHOLDER = '[API_KEY]';

/**
 * The endpoint shown on the RPC page: `{apiBase}/api/v1.0/rpc/{path}?x-api-key-id=..&x-api-key=..`,
 * with the placeholders where a value is empty.
 */
export function rpcUrl(apiBase: string, path: string, keyId: string, key: string): string {
  const id = keyId.trim() ? encodeURIComponent(keyId.trim()) : API_KEY_ID_PLACEHOLDER;
  const secret = key.trim() ? encodeURIComponent(key.trim()) : API_KEY_PLACEHOLDER;
  return `${rpcEndpoint(apiBase, path)}?${API_KEY_ID_PARAM}=${id}&${API_KEY_PARAM}=${secret}`;
}

/** A network's URL without the key, for clients that send it in the x-api-key-id and x-api-key headers. */
export const rpcEndpoint = (apiBase: string, path: string) => `${apiBase.replace(/\/+$/, '')}${RPC_BASE_PATH}/${path}`;

/** The WebSocket endpoint of a network is its HTTP path with this after it: `/api/v1.0/rpc/{network}/ws`. */
export const RPC_WS_SUFFIX = '/ws';

/**
 * Browsers cannot set headers on a WebSocket: a key that requires a JWT takes it in this query
 * parameter there (or `Authorization: Bearer` from other clients).
 */
export const RPC_TOKEN_PARAM = 'token';

/**
 * The WebSocket endpoint shown under the HTTP one: the same URL with ws(s) for http(s) and
 * RPC_WS_SUFFIX after the network.
 */
export function rpcWebSocketUrl(apiBase: string, path: string, keyId: string, key: string): string {
  const http = rpcUrl(apiBase, path, keyId, key);
  const queryAt = http.indexOf('?');
  return `${http.slice(0, queryAt).replace(/^http/, 'ws')}${RPC_WS_SUFFIX}${http.slice(queryAt)}`;
}

/**
 * A WebSocket refused or closed by the gateway is closed with 4000 + the HTTP status the same
 * refusal has over HTTP (4401 a wrong or missing key, 4403 an inactive key or a suspended account,
 * 4404 an unknown network, 4429 too many connections or failed key checks) and the message as the
 * close reason.
 */
export const rpcCloseCode = (httpStatus: number) => 4000 + httpStatus;

/** JSON-RPC 2.0 error codes the gateway answers with (the -32000 range is the server's own). */
export const RpcErrorCodes = {
  parseError: -32700,
  invalidRequest: -32600,
  /** JSON-RPC 2.0 "Method not found": what every Ethereum client reads as a call the endpoint does not serve. */
  methodNotAvailable: -32601,
  /** JSON-RPC 2.0 "Invalid params": e.g. an eth_subscribe of a kind the gateway does not serve. */
  invalidParams: -32602,
  unauthorized: -32001,
  forbidden: -32003,
  notFound: -32004,
  rateLimited: -32005,
  /** The account's monthly spending cap is reached (HTTP 402). */
  spendingCap: -32005,
  /** EIP-1474 "Limit exceeded": what the peers answer an eth_getLogs past their range or result cap with. */
  limitExceeded: -32005,
  /** What geth answers a call naming a filter it does not hold. */
  filterNotFound: -32000,
  upstream: -32603,
} as const;

export const RpcErrorBody = Type.Object({
  jsonrpc: Type.Literal('2.0'),
  id: Type.Union([Type.String(), Type.Number(), Type.Null()]),
  error: Type.Object({ code: Type.Integer(), message: Type.String() }),
});
export type RpcErrorBody = Static<typeof RpcErrorBody>;

const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}…` : text);

/** The gateway's own texts (ours: the spec shows none). */
export const RpcMessages = {
  /** The path is cut at 40 characters: an answer never echoes a long address back. */
  unknownNetwork: (path: string) =>
    `Unknown network "${path.length > 40 ? `${path.slice(0, 40)}…` : path}". Networks: ${RPC_NETWORKS.map((n) => n.path).join(', ')}.`,
  networkUnavailable: (name: string) => `${name} is not available right now, please try again later.`,
  missingKey: `An API key is required: pass ${API_KEY_ID_PARAM} and ${API_KEY_PARAM} in the query or as headers.`,
  wrongKey: 'The API key id or API key is not valid.',
  inactiveKey: 'This API key is inactive. Activate it on the API Keys page to use it.',
  deletedKey: 'This API key has been deleted.',
  suspended:
    'This account has been suspended due to an insufficient balance. Please top up credits (Billings, Buy Credits) to re-activate it.',
  usePost: `Send JSON-RPC requests to this URL with POST (or open a WebSocket to it with ${RPC_WS_SUFFIX} after the network).`,
  notJson: 'Parse error: the body is not valid JSON.',
  notJsonRpc: 'Invalid request: the body must be a JSON-RPC 2.0 request object or a non-empty array of them.',
  batchTooLarge: (max: number) => `Invalid request: a batch may hold at most ${max} requests.`,
  tooLarge: (bytes: number) => `Request too large: the body may be at most ${bytes} bytes.`,
  bodyTooSlow: (seconds: number) => `The request body did not arrive within ${seconds} seconds.`,
  rateLimited: (perSecond: number) =>
    `Rate limit exceeded: this API key may make at most ${perSecond} requests per second. Please slow down and retry.`,
  /** The method name is cut at 60 characters, as the network path is. */
  methodNotAvailable: (method: string) => `The method ${cut(method, 60)} is not available on this endpoint.`,
  tooManyWrongKeys:
    'Too many requests with a wrong API key from this address. Please check the API key id and API key, and retry later.',
  // A key's own rules and limits (docs/api.md "Locking a key down"): each names what was refused.
  originNotAllowed: (origin: string) => `origin ${cut(origin, 100)} is not allowed for this key`,
  originMissing: 'a request without an Origin or Referer header is not allowed for this key',
  ipNotAllowed: (ip: string) => `client address ${ip} is not allowed for this key`,
  methodNotAllowed: (method: string) => `method ${cut(method, 60)} is not allowed for this key`,
  contractNotAllowed: (address: string) => `contract ${cut(address, 42)} is not allowed for this key`,
  contractMissing: (method: string) => `${method} without a contract address is not allowed for this key`,
  contractOverrides: (method: string) => `${method} with state or block overrides is not allowed for this key`,
  contractUncheckable: (method: string) =>
    `method ${cut(method, 60)} is not allowed for this key: it can run or read any contract`,
  contractCallsUnchecked: (method: string) =>
    `${method} to Multicall3 with calls that cannot be checked is not allowed for this key`,
  contractDelegation: (method: string) =>
    `${method} with an EIP-7702 authorization list is not allowed for this key: it can put any code at the sender's address`,
  contractTransactionUnreadable: (method: string) =>
    `${method} with a transaction that cannot be decoded is not allowed for this key`,
  perSecondLimit: (limit: number) => `request limit of ${limit} per second reached, resets in 1 second`,
  dailyLimit: (limit: number) => `daily request limit of ${limit} reached, resets at 00:00 UTC`,
  perSecondComputeUnits: (limit: number) => `compute unit limit of ${limit} per second reached, resets in 1 second`,
  dailyComputeUnits: (limit: number) => `daily compute unit limit of ${limit} reached, resets at 00:00 UTC`,
  jwtMissing: 'this key requires a JWT: send Authorization: Bearer <JWT>',
  jwtInvalid: (reason: string) => `the JWT is not valid: ${reason}`,
  keyExpired: (at: string) => `this API key expired at ${at}`,
  // The eth_getLogs guard (docs/api.md "Caching and limits"): the range asked for, and the limit.
  logsRangeTooLarge: (from: bigint, to: bigint, max: number) =>
    `eth_getLogs block range too large: blocks ${from}-${to} span ${to - from + 1n}, at most ${max} per request; split the range`,
  logsTooMany: (max: number) =>
    `eth_getLogs returned more than ${max} logs: query a smaller block range or narrower address and topics`,
  // Filters the eth_getLogs guard cannot check, answered with -32602 (invalid params).
  logsFilterNotObject:
    'the filter must be an object: {fromBlock, toBlock, address, topics} or {blockHash, address, topics}',
  logsBlockHashWithRange: 'blockHash cannot be combined with fromBlock or toBlock',
  logsUnreadableBound: (field: 'fromBlock' | 'toBlock') =>
    `${field} must be a block number, a tag (earliest, latest, pending, safe, finalized) or {"blockNumber": …}`,
  // WebSocket endpoints and subscriptions (docs/api.md "WebSocket").
  tooManyConnections: (max: number) =>
    `this API key has ${max} WebSocket connections open on this server, the most allowed: close one and retry`,
  tooManySubscriptions: (max: number) =>
    `this API key has ${max} subscriptions open on this server, the most allowed: unsubscribe one and retry`,
  tooManyFilters: (max: number) =>
    `this server holds ${max} distinct subscription filters on this network, the most it takes: subscribe to one that is in use, or retry later`,
  subscriptionKinds:
    'eth_subscribe takes "newHeads", "logs" (with an optional {address, topics} filter) or "newPendingTransactions"',
  subscriptionsUnavailable: (name: string) => `${name} serves no subscriptions right now, please try again later.`,
  readTooSlowly: 'the connection was closed: its answers were not read fast enough',
  answerTooLarge: (mib: number) =>
    `the answer is larger than ${mib} MiB, the most the gateway holds for one request: ask for less (a smaller batch or range)`,
  answersBusy: 'the gateway is holding as many answers as it may right now, please try again shortly',
  filterNotFound: 'filter not found',
  tooManyAccountConnections: (max: number) =>
    `this account has ${max} WebSocket connections open on this server, the most allowed: close one and retry`,
  tooManyAccountSubscriptions: (max: number) =>
    `this account has ${max} subscriptions open on this server, the most allowed: unsubscribe one and retry`,
  webSocketOnly: (method: string) => `${method} is served over WebSocket only: connect to this endpoint's /ws URL`,
  serverClosing: 'the server is restarting: reconnect',
  spendingCapReached: (capUsd: string) =>
    `The account's monthly spending cap of $${capUsd} is reached; raise it in Billing.`,
  upstreamFailed: (name: string) => `${name} did not answer, please try again later.`,
  upstreamTimeout: (name: string) => `${name} did not answer in time, please try again later.`,
} as const;

/**
 * A network's state as customers see it (GET /api/v1.0/rpc/status): `operational`; `degraded` when
 * some of its nodes lag or are down, or its head is older than three block times; `down` when no node
 * answers.
 */
export const RpcNetworkState = Type.Union([
  Type.Literal('operational'),
  Type.Literal('degraded'),
  Type.Literal('down'),
]);
export type RpcNetworkState = Static<typeof RpcNetworkState>;

/** One hour (UTC) of a network: the share of its calls answered without a node error (null: no call). */
export const RpcStatusHour = Type.Object({
  hour: Type.String({ format: 'date-time' }),
  answeredShare: Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()]),
});
export type RpcStatusHour = Static<typeof RpcStatusHour>;

/**
 * One network's status: its best head (null until the gateway has read one), how long ago that head
 * was first seen, its state, and its last 24 hours, oldest first.
 */
export const RpcNetworkStatus = Type.Object({
  network: Type.String(),
  head: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
  headAgeSeconds: Type.Union([Type.Number({ minimum: 0 }), Type.Null()]),
  status: RpcNetworkState,
  lastDay: Type.Array(RpcStatusHour),
});
export type RpcNetworkStatus = Static<typeof RpcNetworkStatus>;

export const RpcStatus = Type.Object({ networks: Type.Array(RpcNetworkStatus) });
export type RpcStatus = Static<typeof RpcStatus>;
