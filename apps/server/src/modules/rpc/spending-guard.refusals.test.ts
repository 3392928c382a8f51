import { RpcMessages, rpcWebSocketUrl } from '@ebs/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { pglite } from '../../testing/databases.ts';
import { accountWithKey, rpcCall } from '../../testing/keys.ts';
import { until } from '../../testing/poll.ts';
import { serverFor } from '../../testing/server.ts';
import { WsClient } from '../../testing/ws-client.ts';
import { setPrice } from '../usage/index.ts';
import { nodeCall } from './anvil-nodes.ts';

const NETWORK = 'ethereum/mainnet';
const CALL = { jsonrpc: '2.0', id: 7, method: 'eth_blockNumber', params: [] };

describe('the gateway at an account’s monthly spending cap', () => {
  const server = serverFor(pglite, { USAGE_FLUSH_SECONDS: '60' });
  const clients: WsClient[] = [];
  afterEach(() => {
    for (const client of clients.splice(0)) client.close();
  });

  it('answers 402 over HTTP and WebSocket once the month’s usage reaches the cap, holds notifications back, and serves again once the cap is raised', async () => {
    const { db, deps } = server();
    // $2 000 per million compute units: a read costs $0.002, so a $0.01 cap is five reads.
    await setPrice(db, 'RPC_API_ETHEREUM_MAINNET', '2000');
    await deps.rpc.prices.refresh();
    const holder = await accountWithKey(server().url, db, '10');
    const setCap = async (monthlyCapUsd: string | null) => {
      const saved = await holder.client.post(
        '/api/v1.0/account/updateAccountSettings',
        { settingName: 'spendingCap', fields: { monthlyCapUsd } },
        holder.headers,
      );
      expect(saved.status).toBe(200);
    };
    await setCap('0.01');
    const url = holder.url(NETWORK);
    const ws = await WsClient.open(rpcWebSocketUrl(server().url, NETWORK, holder.keyId, holder.key));
    clients.push(ws);
    const subscription = (await ws.call('eth_subscribe', ['newHeads'])).result as string;

    // Served until the cap, then refused: within the second the gateway takes to read a new cap.
    let served = 0;
    const refused = await until(
      'a call refused at the cap',
      async () => {
        const answer = await rpcCall(url, CALL);
        if (answer.status === 200) served += 1;
        return answer.status === 402 ? answer : undefined;
      },
      10_000,
      20,
    );
    expect(refused.body).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: { code: -32005, message: RpcMessages.spendingCapReached('0.01') },
    });
    expect(served).toBeGreaterThanOrEqual(4);
    // A second counts its own calls at once: none past the cap once it is known.
    expect((await rpcCall(url, CALL)).status).toBe(402);
    expect(await ws.call('eth_blockNumber')).toMatchObject({
      error: { code: -32005, message: RpcMessages.spendingCapReached('0.01') },
    });

    // The subscription stays open; a block made now is not sent.
    const node = (await deps.rpc.localNodeUrl(NETWORK)) as string;
    await nodeCall(node, 'evm_mine');
    const held = (await nodeCall(node, 'eth_blockNumber')) as string;

    await setCap('1.00');
    await until('served again', async () => (await rpcCall(url, CALL)).status === 200, 5_000, 20);
    await nodeCall(node, 'evm_mine');
    const [head] = await ws.notified(subscription, 1);
    expect(BigInt(String(head?.number))).toBe(BigInt(held) + 1n);
    expect(ws.closed).toBeNull();
  });
});
