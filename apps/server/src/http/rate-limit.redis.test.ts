import { RpcMessages } from '@ebs/contract';
import { describe, expect, it } from 'vitest';
import { freePort } from '../testing/anvil.ts';
import { pglite } from '../testing/databases.ts';
import { accountWithKey, rpcCall } from '../testing/keys.ts';
import { startServer } from '../testing/server.ts';

const CHAIN_ID = { jsonrpc: '2.0', id: 1, method: 'eth_chainId' };

describe.skipIf(!process.env.TEST_REDIS_URL)('rate limits in Redis, shared by server processes', () => {
  it('counts one key’s calls across two processes against one limit', async () => {
    const opened = await pglite.open();
    const env = { REDIS_URL: String(process.env.TEST_REDIS_URL), RPC_RATE_LIMIT_PER_SECOND: '4' };
    const [first, second] = [await startServer(opened.db, env), await startServer(opened.db, env)];
    try {
      const holder = await accountWithKey(first.url, first.db);
      const urls = [holder.url('aurora/mainnet'), holder.url('aurora/mainnet').replace(first.url, second.url)];
      // Warm the node so that all eight calls fall in one second.
      await rpcCall(urls[0] as string, CHAIN_ID);
      await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000)));
      const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => rpcCall(urls[i % 2] as string, CHAIN_ID)));
      const statuses = answers.map((a) => a.status);
      // Each process alone would allow its 4; together they allow 4 (one more if the calls straddle a second).
      expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(5);
      const refused = answers.find((a) => a.status === 429);
      expect(refused?.body.error?.message).toBe(RpcMessages.rateLimited(4));
    } finally {
      await first.close();
      await second.close();
      await opened.close();
    }
  });

  it('lets calls through when Redis cannot be reached, rather than failing them', async () => {
    const opened = await pglite.open();
    const server = await startServer(opened.db, {
      REDIS_URL: `redis://127.0.0.1:${await freePort()}`,
      RPC_RATE_LIMIT_PER_SECOND: '1',
    });
    try {
      const holder = await accountWithKey(server.url, server.db);
      const answers = await Promise.all(
        Array.from({ length: 3 }, () => rpcCall(holder.url('aurora/mainnet'), CHAIN_ID)),
      );
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    } finally {
      await server.close();
      await opened.close();
    }
  });
});
