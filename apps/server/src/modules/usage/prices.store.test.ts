import { FORWARDING_RESOURCES, RPC_NETWORKS } from '@ebs/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/database.ts';
import { testDatabases } from '../../testing/databases.ts';
import { forwardingFee, listPrices, networkPrices, setPrice } from './prices.store.ts';

describe.each(testDatabases)('prices on $name', (database) => {
  let db: Db;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ db, close } = await database.open());
  });
  afterAll(() => close());

  const unitPrice = async (resource: string) =>
    (await listPrices(db)).find((p) => p.resourceName === resource)?.unitPrice;
  const perMillion = async (resource: string) =>
    (await networkPrices(db)).find((p) => p.resourceName === resource)?.usdPerMillionCu;

  it('answers each network at 20 USD per million compute units, 0.00002 a unit, until the operator sets one', async () => {
    const networks = await networkPrices(db);
    expect(networks.map((n) => n.network)).toEqual(RPC_NETWORKS.map((n) => n.path));
    expect(networks[0]).toEqual({
      network: 'ethereum/mainnet',
      resourceName: 'RPC_API_ETHEREUM_MAINNET',
      usdPerMillionCu: '20',
    });
    expect(await unitPrice('RPC_API_ETHEREUM_MAINNET')).toBe('0.00002');
    expect(await forwardingFee(db)).toBe('0.05');
  });

  it('keeps a price per million compute units as the exact price of one unit, and answers it back as set', async () => {
    const cases: Array<[string, string, string]> = [
      ['0.35', '0.00000035', '0.35'],
      ['20', '0.00002', '20'],
      ['999999.9999', '0.9999999999', '999999.9999'],
      ['0.0001', '0.0000000001', '0.0001'],
      ['12.50', '0.0000125', '12.5'],
      ['0', '0', '0'],
    ];
    for (const [set, unit, listed] of cases) {
      await setPrice(db, 'RPC_API_BSC_TESTNET', set);
      expect([set, await unitPrice('RPC_API_BSC_TESTNET'), await perMillion('RPC_API_BSC_TESTNET')]).toEqual([
        set,
        unit,
        listed,
      ]);
    }
    expect(await perMillion('RPC_API_BSC_MAINNET')).toBe('20');
  });

  it('keeps a token forwarding fee per forward, and answers the first forwarding network’s as the fee', async () => {
    const [first, second] = FORWARDING_RESOURCES;
    await setPrice(db, second ?? '', '0.25');
    expect(await unitPrice(second ?? '')).toBe('0.25');
    expect(await forwardingFee(db)).toBe('0.05');
    await setPrice(db, first ?? '', '0.1');
    expect(await forwardingFee(db)).toBe('0.1');
  });

  it('refuses an unknown resource and a price out of its form', async () => {
    await expect(setPrice(db, 'RPC_API_NOWHERE', '1')).rejects.toThrow('Unknown resource');
    for (const price of ['0.00001', '1000000', '-1', '1e3', 'free', '']) {
      await expect(setPrice(db, 'RPC_API_ETHEREUM_MAINNET', price), price).rejects.toThrow('Not a price');
    }
    await expect(setPrice(db, FORWARDING_RESOURCES[0] ?? '', '0.00000000001')).rejects.toThrow('Not a price');
    expect(await perMillion('RPC_API_ETHEREUM_MAINNET')).toBe('20');
  });
});
