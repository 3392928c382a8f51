import { endpoint } from '../endpoint.ts';
import { RpcPricing } from '../pricing.ts';
import { RPC_BASE_PATH, RPC_NETWORKS, RpcNetworkParams, RpcQuery, RpcStatus } from '../rpc.ts';

const gatewayCall = { access: 'public', tag: 'rpc' } as const;

/**
 * The JSON-RPC gateway (spec B §8): anyone may call it, the API key travels in the query or in
 * headers; its answers are JSON-RPC, never the success wrapper.
 */
export const rpcEndpoints = {
  /** Forwards a JSON-RPC 2.0 request or batch to the network `:chain/:net`. */
  gateway: endpoint({
    ...gatewayCall,
    method: 'POST',
    path: `${RPC_BASE_PATH}/:chain/:net`,
    summary: 'JSON-RPC gateway of a network',
    description: `Forwards a JSON-RPC 2.0 request or batch to a network: ${RPC_NETWORKS.map((n) => n.path).join(', ')}. The API key goes in the query or, under the same names, in headers; no identity token. Refusals are JSON-RPC error objects. Each call of a batch is metered as one request, priced by its compute units (GET /api/v1.0/rpc/pricing).`,
    params: RpcNetworkParams,
    query: RpcQuery,
  }),
  /**
   * Each network's head and state, and its last 24 hours, for the console's RPC and Status pages
   * (public; the same answer for a few seconds). Answered in the success wrapper, not JSON-RPC.
   */
  status: endpoint({
    access: 'public',
    tag: 'rpc',
    method: 'GET',
    path: `${RPC_BASE_PATH}/status`,
    summary: "The networks' status",
    description:
      'Per network: its best head, how long ago it was first seen, its state (operational; degraded when some nodes lag or are down, or the head is older than three block times; down when no node answers) and, per hour of the last 24, the share of calls answered without a node error.',
    response: RpcStatus,
  }),
  /**
   * What calls cost (public): each network's USD per million compute units, each method's units,
   * the price classes, and the token forwarding fee. Answered in the success wrapper.
   */
  pricing: endpoint({
    access: 'public',
    tag: 'rpc',
    method: 'GET',
    path: `${RPC_BASE_PATH}/pricing`,
    summary: 'Prices and compute units',
    description:
      "Per network, USD per million compute units; per method (or namespace), the compute units of one call (eth_getLogs: per started 1 000 blocks of its range, at most 10 times; a call with state overrides costs the override class); the classes' units; what a call answered from the cache costs (null: its class's); the fee of one token forward.",
    response: RpcPricing,
  }),
  /** Any other path under the base: answers the unknown-network error, as JSON-RPC. */
  unknownNetwork: endpoint({ ...gatewayCall, method: 'POST', path: `${RPC_BASE_PATH}/*`, hidden: true }),
  /** A browser's preflight before a cross-origin POST with JSON or key headers. */
  preflight: endpoint({ ...gatewayCall, method: 'OPTIONS', path: `${RPC_BASE_PATH}/*`, hidden: true }),
};
