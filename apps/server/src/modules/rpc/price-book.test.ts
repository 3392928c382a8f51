import { DEFAULT_CLASS_COMPUTE_UNITS, RPC_NETWORKS, type RpcPricing } from '@ebs/contract';
import { describe, expect, it } from 'vitest';
import { Client } from '../../testing/client.ts';
import { pglite } from '../../testing/databases.ts';
import { serverFor } from '../../testing/server.ts';
import { setComputeUnits, setPrice } from '../usage/index.ts';

describe('GET /api/v1.0/rpc/pricing', () => {
  const server = serverFor(pglite);

  it('answers anyone what calls cost: each network per million compute units, each method’s units, the classes and the forwarding fee, and the operator’s changes', async () => {
    const anyone = new Client(server().url);
    const read = async () => {
      const answer = await anyone.get<RpcPricing>('/api/v1.0/rpc/pricing');
      expect(answer.status).toBe(200);
      return answer.body.data;
    };
    const pricing = await read();
    expect(pricing.networks).toEqual(
      RPC_NETWORKS.map((n) => ({ network: n.path, resourceName: n.resource, usdPerMillionCu: '20' })),
    );
    expect(pricing.forwardingFeeUsd).toBe('0.05');
    expect(pricing.cachedComputeUnits).toBeNull();
    expect(pricing.classes).toContainEqual({ name: 'trace', computeUnits: DEFAULT_CLASS_COMPUTE_UNITS.trace });
    const units = (method: string) => pricing.methods.find((m) => m.method === method);
    expect(units('eth_chainId')).toEqual({ method: 'eth_chainId', computeUnits: 0, priceClass: 'free' });
    expect(units('eth_getBalance')).toEqual({ method: 'eth_getBalance', computeUnits: 1, priceClass: 'read' });
    expect(units('eth_getLogs')).toEqual({ method: 'eth_getLogs', computeUnits: 5, priceClass: 'logs' });
    expect(units('debug_trace*')).toEqual({ method: 'debug_trace*', computeUnits: 50, priceClass: 'trace' });
    // What the gateway refuses is not for sale.
    expect(units('eth_sendTransaction')).toBeUndefined();
    expect(units('anvil_*')).toBeUndefined();

    const { db, deps } = server();
    await setPrice(db, 'RPC_API_POLYGON_MAINNET', '0.35');
    await setComputeUnits(db, 'trace', 40);
    await setComputeUnits(db, 'txpool_content', 4);
    await setComputeUnits(db, 'cached', 0);
    await deps.rpc.prices.refresh();
    const changed = await read();
    expect(changed.networks.find((n) => n.network === 'polygon/mainnet')?.usdPerMillionCu).toBe('0.35');
    expect(changed.methods.find((m) => m.method === 'debug_trace*')?.computeUnits).toBe(40);
    expect(changed.methods.find((m) => m.method === 'txpool_content')).toEqual({
      method: 'txpool_content',
      computeUnits: 4,
      priceClass: 'trace',
    });
    expect(changed.cachedComputeUnits).toBe(0);
  });
});
