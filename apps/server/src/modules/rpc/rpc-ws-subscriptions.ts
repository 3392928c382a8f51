import { RpcErrorCodes, RpcMessages } from '@ebs/contract';
import WebSocket from 'ws';
import type { RpcGateway } from './rpc.service.ts';
import { idOf, type RpcAnswer, type RpcCall } from './rpc-request.ts';
import type { RpcConnection } from './rpc-ws-connection.ts';
import { SubscriptionLimit } from './subscription-hub.ts';
import { readSubscription } from './subscription-request.ts';
import { UpstreamSocketError } from './upstream-socket.ts';

const callError = (call: RpcCall, code: number, message: string): RpcAnswer => ({
  jsonrpc: '2.0',
  id: idOf(call),
  error: { code, message },
});

/**
 * eth_subscribe and eth_unsubscribe over the WebSocket endpoints of one process: a key's
 * subscriptions counted against RPC_WS_MAX_SUBSCRIPTIONS_PER_KEY and its account's against
 * RPC_WS_MAX_SUBSCRIPTIONS_PER_ACCOUNT, a logs filter held to the key's
 * contracts, the subscription made at the network's SubscriptionHub.
 */
export class WsSubscriptions {
  /** Subscriptions per key id and per account id, in this process. */
  private readonly byKey = new Map<string, number>();
  private readonly byAccount = new Map<string, number>();

  constructor(
    private readonly rpc: Pick<RpcGateway, 'subscriptions'>,
    private readonly max: { perKey: number; perAccount: number },
  ) {}

  /** eth_subscribe or eth_unsubscribe; a subscription made is added to `made`, announced once the answer is sent. */
  async answer(connection: RpcConnection, call: RpcCall, made: string[]): Promise<RpcAnswer> {
    const hub = this.rpc.subscriptions(connection.network.path);
    const keyId = connection.caller.apiKeyId;
    if (call.method === 'eth_unsubscribe') {
      const [subscription] = Array.isArray(call.params) ? call.params : [];
      const mine = typeof subscription === 'string' && this.end(connection, subscription);
      return { jsonrpc: '2.0', id: idOf(call), result: mine };
    }
    const request = readSubscription(call.params);
    if (typeof request === 'string') return callError(call, RpcErrorCodes.invalidParams, request);
    // A key locked to some contracts reads only their logs, by subscription as by eth_getLogs.
    const policy = connection.caller.key.policy;
    const refused = request.kind === 'logs' && policy ? policy.logsFilterRefusal(request.filter) : null;
    if (refused) return callError(call, RpcErrorCodes.forbidden, refused);
    const { perKey, perAccount } = this.max;
    if ((this.byKey.get(keyId) ?? 0) >= perKey) {
      return callError(call, RpcErrorCodes.limitExceeded, RpcMessages.tooManySubscriptions(perKey));
    }
    if ((this.byAccount.get(connection.caller.accountId) ?? 0) >= perAccount) {
      return callError(call, RpcErrorCodes.limitExceeded, RpcMessages.tooManyAccountSubscriptions(perAccount));
    }
    if (!hub)
      return callError(call, RpcErrorCodes.upstream, RpcMessages.subscriptionsUnavailable(connection.network.name));
    // Counted before the node answers, so that a burst of subscribes cannot pass the limit meanwhile.
    this.count(connection, 1);
    try {
      const subscription = await hub.subscribe(request, connection);
      if (connection.socket.readyState !== WebSocket.OPEN) {
        hub.unsubscribe(connection, subscription);
        this.count(connection, -1);
        return { jsonrpc: '2.0', id: idOf(call), result: subscription };
      }
      connection.subscriptions.add(subscription);
      made.push(subscription);
      return { jsonrpc: '2.0', id: idOf(call), result: subscription };
    } catch (error) {
      this.count(connection, -1);
      if (error instanceof SubscriptionLimit) return callError(call, RpcErrorCodes.limitExceeded, error.message);
      if (error instanceof UpstreamSocketError) {
        return callError(call, error.nodeCode ?? RpcErrorCodes.upstream, error.message);
      }
      throw error;
    }
  }

  /** Ends one of the connection's subscriptions; answers whether it held it. */
  end(connection: RpcConnection, subscription: string): boolean {
    if (!connection.drop(subscription)) return false;
    this.rpc.subscriptions(connection.network.path)?.unsubscribe(connection, subscription);
    this.count(connection, -1);
    return true;
  }

  private count(connection: RpcConnection, change: number): void {
    add(this.byKey, connection.caller.apiKeyId, change);
    add(this.byAccount, connection.caller.accountId, change);
  }
}

function add(counts: Map<string, number>, id: string, change: number): void {
  const count = (counts.get(id) ?? 0) + change;
  if (count > 0) counts.set(id, count);
  else counts.delete(id);
}
