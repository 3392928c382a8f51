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
 * subscriptions counted against RPC_WS_MAX_SUBSCRIPTIONS_PER_KEY, a logs filter held to the key's
 * contracts, the subscription made at the network's SubscriptionHub.
 */
export class WsSubscriptions {
  /** Subscriptions per key id, in this process. */
  private readonly byKey = new Map<string, number>();

  constructor(
    private readonly rpc: Pick<RpcGateway, 'subscriptions'>,
    private readonly maxPerKey: number,
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
    const max = this.maxPerKey;
    if ((this.byKey.get(keyId) ?? 0) >= max) {
      return callError(call, RpcErrorCodes.limitExceeded, RpcMessages.tooManySubscriptions(max));
    }
    if (!hub)
      return callError(call, RpcErrorCodes.upstream, RpcMessages.subscriptionsUnavailable(connection.network.name));
    // Counted before the node answers, so that a burst of subscribes cannot pass the limit meanwhile.
    this.count(keyId, 1);
    try {
      const subscription = await hub.subscribe(request, connection);
      if (connection.socket.readyState !== WebSocket.OPEN) {
        hub.unsubscribe(connection, subscription);
        this.count(keyId, -1);
        return { jsonrpc: '2.0', id: idOf(call), result: subscription };
      }
      connection.subscriptions.add(subscription);
      made.push(subscription);
      return { jsonrpc: '2.0', id: idOf(call), result: subscription };
    } catch (error) {
      this.count(keyId, -1);
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
    this.count(connection.caller.apiKeyId, -1);
    return true;
  }

  private count(keyId: string, change: number): void {
    const count = (this.byKey.get(keyId) ?? 0) + change;
    if (count > 0) this.byKey.set(keyId, count);
    else this.byKey.delete(keyId);
  }
}
