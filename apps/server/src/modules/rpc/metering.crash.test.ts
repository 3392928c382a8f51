import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type AccountSummary, type CreatedApiKey, type ResourceUsageList, rpcUrl } from '@ebs/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { Client } from '../../testing/client.ts';
import { type CrashTarget, crashTarget, crashTargetNames, sameSession } from '../../testing/crash-kit.ts';
import { rpcCall } from '../../testing/keys.ts';
import { until } from '../../testing/poll.ts';
import { reportFigures } from '../../testing/report.ts';
import type { ServerProcess } from '../../testing/server-process.ts';

/** An upstream node that answers every call at once, so that the gateway counts calls and nothing else. */
const upstream = createServer((req, res) => {
  let body = '';
  req.on('data', (chunk) => {
    body += chunk;
  });
  req.on('end', () => {
    const { id } = JSON.parse(body) as { id: unknown };
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', id, result: '0x1' }));
  });
});
await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
afterAll(() => new Promise<void>((resolve) => upstream.close(() => resolve())));
const RPC_UPSTREAMS = JSON.stringify({
  'ethereum/mainnet': [`http://127.0.0.1:${(upstream.address() as AddressInfo).port}`],
});

/** An account credited through the admin command, with an API key made through the API. */
async function keyHolder(target: CrashTarget, server: ServerProcess) {
  let client = new Client(server.url);
  await client.signUp();
  const accountId = (
    await client.post<AccountSummary>('/api/v1.0/account', { accountName: 'Metered' }, { 'ebs-account-id': '' })
  ).body.data.id;
  await target.admin(server, ['deposit', '--account', accountId, '--amount', '100', '--note', 'credit']);
  const h = { 'ebs-account-id': accountId };
  const { keyId, key } = (await client.post<CreatedApiKey>('/api/v1.0/key/', { apiKeyName: 'metered' }, h)).body.data
    .key;
  return {
    moveTo(url: string) {
      client = sameSession(client, url);
    },
    async call(count: number) {
      for (let i = 0; i < count; i++) {
        const answer = await rpcCall(rpcUrl(client.baseUrl, 'ethereum/mainnet', keyId, key), {
          jsonrpc: '2.0',
          id: i,
          method: 'eth_chainId',
        });
        expect(answer.body.result).toBe('0x1');
      }
    },
    /** The requests the account's usage history shows. */
    async counted() {
      const list = await client.get<ResourceUsageList>('/api/v1.0/usage/api/billing?limit=1000', h);
      return list.body.data.accountResourceUsage.reduce((sum, r) => sum + r.usage, 0);
    },
  };
}

describe.each(crashTargetNames)('gateway usage across a kill and a graceful stop (%s)', (name) => {
  it('loses at most what was counted since the last flush on a kill, and nothing on a SIGTERM', {
    timeout: 90_000,
  }, async () => {
    const target = await crashTarget(name);
    try {
      const flushing = { RPC_UPSTREAMS, USAGE_FLUSH_SECONDS: '0.5' };
      const first = await target.start(flushing);
      const holder = await keyHolder(target, first);
      const flushed = 30;
      const unflushed = 20;
      await holder.call(flushed);
      await until('the first calls written by a flush', async () => (await holder.counted()) === flushed);
      await holder.call(unflushed);
      await first.crash();

      // Only the end-of-process flush writes what this one counts: a SIGTERM must keep all of it.
      const second = await target.start({ RPC_UPSTREAMS, USAGE_FLUSH_SECONDS: '60' });
      holder.moveTo(second.url);
      const afterKill = await holder.counted();
      expect(afterKill).toBeGreaterThanOrEqual(flushed);
      expect(afterKill).toBeLessThanOrEqual(flushed + unflushed);
      const graceful = 25;
      await holder.call(graceful);
      expect(await second.stop()).toBe(0);

      const third = await target.start(flushing);
      holder.moveTo(third.url);
      const afterStop = await holder.counted();
      expect(afterStop).toBe(afterKill + graceful);
      await third.stop();
      reportFigures('metering on kill', {
        database: name,
        flushIntervalSeconds: 0.5,
        countedBeforeKill: flushed + unflushed,
        keptAfterKill: afterKill,
        lostOnKill: flushed + unflushed - afterKill,
        countedBeforeStop: graceful,
        lostOnStop: afterKill + graceful - afterStop,
      });
    } finally {
      await target.drop();
    }
  });
});
