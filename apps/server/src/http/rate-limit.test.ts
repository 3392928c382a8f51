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
      // Warm the node, then let the window that call opened end: the limiter's windows start at
      // their first call, so the batch below opens a fresh one.
      await rpcCall(urls[0] as string, CHAIN_ID);
      await new Promise((r) => setTimeout(r, 1100));
      const calls = 16;
      const started = Date.now();
      const answers = await Promise.all(
        Array.from({ length: calls }, (_, i) => rpcCall(urls[i % 2] as string, CHAIN_ID)),
      );
      // Each process alone would allow 4 a second; together they allow 4 in each window the calls
      // spanned (a loaded machine can spread them over more than one).
      const seconds = Math.floor((Date.now() - started) / 1000) + 1;
      const allowed = answers.filter((a) => a.status === 200).length;
      expect(allowed).toBeLessThanOrEqual(4 * seconds);
      if (4 * seconds < calls) {
        const refused = answers.find((a) => a.status === 429);
        expect(refused?.body.error?.message).toBe(RpcMessages.rateLimited(4));
      }
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
