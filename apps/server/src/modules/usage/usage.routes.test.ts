import type { ResourceUsageList } from '@ebs/contract';
import { describe, expect, it } from 'vitest';
import { testDatabases } from '../../testing/databases.ts';
import { accountWithKey, type KeyHolder } from '../../testing/keys.ts';
import { serverFor } from '../../testing/server.ts';
import { addUsage } from './usage.store.ts';

const DAY = '2026-11-20';

async function download(holder: KeyHolder, path: string) {
  const response = await fetch(holder.client.baseUrl + path, {
    headers: { authorization: `Bearer ${holder.client.idToken}`, ...holder.headers },
  });
  return (await response.text()).trimEnd().split('\r\n');
}

describe.each(testDatabases)('usage records with their compute units on $name', (database) => {
  const server = serverFor(database, { USAGE_FLUSH_SECONDS: '60' });

  const seed = async (holder: KeyHolder) => {
    await addUsage(server().db, [
      {
        accountId: holder.accountId,
        apiKeyId: holder.keyId,
        resource: 'RPC_API_ETHEREUM_MAINNET',
        date: DAY,
        usage: 12,
        computeUnits: 1_234_567,
      },
      {
        accountId: holder.accountId,
        apiKeyId: null,
        resource: 'TOKEN_FORWARDING_ETHEREUM_SEPOLIA',
        date: DAY,
        usage: 2,
        computeUnits: null,
      },
    ]);
  };

  it('lists each record with its compute units, priced by them; token forwards with none', async () => {
    const holder = await accountWithKey(server().url, server().db, '0');
    await seed(holder);
    const list = await holder.client.get<ResourceUsageList>(
      `/api/v1.0/usage/api/billing?limit=10&offset=0&order=asc`,
      holder.headers,
    );
    expect(
      list.body.data.accountResourceUsage.map((r) => [r.resourceName, r.usage, r.computeUnits, r.unitPrice, r.price]),
    ).toEqual([
      ['RPC_API_ETHEREUM_MAINNET', 12, 1_234_567, 0.00002, 24.69134],
      ['TOKEN_FORWARDING_ETHEREUM_SEPOLIA', 2, null, 0.05, 0.1],
    ]);
  });

  it('exports a Compute Units column after the requests, empty for token forwards', async () => {
    const holder = await accountWithKey(server().url, server().db, '0');
    await seed(holder);
    const lines = await download(holder, '/api/v1.0/usage/api/billing/export?order=asc');
    expect(lines[0]).toBe(
      'Date,Description,Resource,Requests,Compute Units,Unit price (USD),Price (USD),Status,API key ID',
    );
    expect(lines.slice(1)).toEqual([
      `${DAY},Ethereum Mainnet RPC requests,RPC_API_ETHEREUM_MAINNET,12,1234567,0.00002,24.69134,PENDING,${holder.keyId}`,
      `${DAY},ETHEREUM SEPOLIA token forwards,TOKEN_FORWARDING_ETHEREUM_SEPOLIA,2,,0.05,0.1,PENDING,`,
    ]);
  });
});
