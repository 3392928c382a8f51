import { readFile } from 'node:fs/promises';
import {
  type AccountSummary,
  type CreatedApiKey,
  type ResourceUsageList,
  RpcErrorCodes,
  RpcMessages,
  rpcUrl,
} from '@ebs/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { startAnvil } from '../../testing/anvil.ts';
import { Client } from '../../testing/client.ts';
import { crashTarget, preferredCrashTarget } from '../../testing/crash-kit.ts';
import { pglite } from '../../testing/databases.ts';
import { accountWithKey, rpcCall } from '../../testing/keys.ts';
import { until } from '../../testing/poll.ts';
import { reportFigures } from '../../testing/report.ts';
import { serverFor, startServer } from '../../testing/server.ts';
import { WsClient } from '../../testing/ws-client.ts';

const NETWORK = 'ethereum/mainnet';
const node = await startAnvil(1);
afterAll(() => node.stop());

/** An address whose code, put there by a state override, returns 3 MiB of zeros (6 MiB of hex in the answer). */
const BIG = '0x00000000000000000000000000000000000b16b1';
const RETURNS_3_MIB = '0x623000006000f3'; // PUSH3 0x300000, PUSH1 0, RETURN
const bigCall = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'eth_call',
  params: [{ to: BIG, gas: '0x1c9c380' }, 'latest', { [BIG]: { code: RETURNS_3_MIB } }],
});

/** The process's resident memory now (kB). */
async function residentKb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
}

describe('one cheap request can take gigabytes', () => {
  it('four batches of 40 eth_calls answering 3 MiB each, beside a call the gateway answers itself, raise the peak RSS by at most 150 MB; each is answered within 30 s with -32005 and its calls metered', {
    timeout: 180_000,
  }, async () => {
    const target = await crashTarget(preferredCrashTarget);
    try {
      const server = await target.start({
        RPC_UPSTREAMS: JSON.stringify({ [NETWORK]: [node.url] }),
        USAGE_FLUSH_SECONDS: '0.5',
      });
      const pid = server.child.pid as number;
      const client = new Client(server.url);
      await client.signUp();
      const accountId = (
        await client.post<AccountSummary>('/api/v1.0/account', { accountName: 'Attacker' }, { 'ebs-account-id': '' })
      ).body.data.id;
      await target.admin(server, ['deposit', '--account', accountId, '--amount', '100', '--note', 'credit']);
      const headers = { 'ebs-account-id': accountId };
      const { keyId, key } = (await client.post<CreatedApiKey>('/api/v1.0/key/', { apiKeyName: 'k' }, headers)).body
        .data.key;
      const url = rpcUrl(server.url, NETWORK, keyId, key);
      // Warm: the gateway's paths are compiled and its connection to the node open before the baseline.
      expect((await rpcCall(url, [bigCall(1), { jsonrpc: '2.0', id: 2, method: 'eth_chainId' }])).status).toBe(200);
      const before = await residentKb(pid);
      let peak = before;
      const sampling = setInterval(() => {
        residentKb(pid).then(
          (kb) => {
            peak = Math.max(peak, kb);
          },
          () => {},
        );
      }, 10);
      const attack = [
        ...Array.from({ length: 40 }, (_, i) => bigCall(i + 1)),
        { jsonrpc: '2.0', id: 41, method: 'eth_accounts' },
      ];
      const started = Date.now();
      const answers = await Promise.all(
        Array.from({ length: 4 }, async () => {
          const answer = await rpcCall(url, attack);
          return { ...answer, seconds: (Date.now() - started) / 1000 };
        }),
      );
      clearInterval(sampling);
      peak = Math.max(peak, await residentKb(pid));
      const tooLarge = RpcMessages.answerTooLarge(16);
      for (const answer of answers) {
        expect(answer.status).toBe(200);
        expect(answer.seconds).toBeLessThan(30);
        expect(answer.body).toHaveLength(41);
        for (const call of answer.body) {
          expect(call.error).toEqual({ code: RpcErrorCodes.limitExceeded, message: tooLarge });
        }
      }
      const growthMb = (peak - before) / 1024;
      expect(growthMb).toBeLessThanOrEqual(150);
      // Every eth_call reached the node and is metered (the warm-up's one too); eth_accounts is the gateway's.
      const counted = async () => {
        const list = await client.get<ResourceUsageList>('/api/v1.0/usage/api/billing?limit=1000', headers);
        return list.body.data.accountResourceUsage.reduce((sum, r) => sum + r.usage, 0);
      };
      await until('the attack’s calls metered', async () => (await counted()) === 4 * 40 + 2, 20_000);
      reportFigures('one request cannot take gigabytes', {
        concurrentRequests: 4,
        callsPerRequest: 41,
        nodeAnswerMiBPerRequest: 40 * 6,
        peakRssGrowthMb: Math.round(growthMb),
        slowestAnswerSeconds: Math.max(...answers.map((a) => a.seconds)),
        metered: await counted(),
      });
      await server.stop();
    } finally {
      await target.drop();
    }
  });
});

describe('one customer cannot break another’s calls', () => {
  const server = serverFor(pglite, { RPC_UPSTREAMS: JSON.stringify({ [NETWORK]: [node.url] }) });

  it('a body with a duplicate "params" key, merged with other accounts’ identical calls, leaves every one of theirs answered', async () => {
    const attacker = await accountWithKey(server().url, server().db);
    const victim = await accountWithKey(server().url, server().db);
    const poisoned = '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[],"params":[]}';
    const fair = (id: number) => ({ jsonrpc: '2.0', id, method: 'eth_blockNumber', params: [] });
    let victimCalls = 0;
    let poisonedAnswers = 0;
    for (let round = 0; round < 40; round++) {
      const answers = await Promise.all([
        ...Array.from({ length: 5 }, () => rpcCall(attacker.url(NETWORK), poisoned)),
        ...Array.from({ length: 5 }, (_, i) => rpcCall(victim.url(NETWORK), fair(round * 10 + i))),
      ]);
      for (const [i, answer] of answers.slice(5).entries()) {
        victimCalls += 1;
        if (answer.body.error || answer.body.id !== round * 10 + i) poisonedAnswers += 1;
      }
    }
    expect(poisonedAnswers).toBe(0);
    reportFigures('merged calls send what they match on', { victimCalls, poisonedAnswers });
  });
});

describe('the eth_getLogs range guard', () => {
  const server = serverFor(pglite, {
    RPC_UPSTREAMS: JSON.stringify({ [NETWORK]: [node.url] }),
    RPC_GET_LOGS_MAX_RANGE: '1000',
  });
  const huge = RpcMessages.logsRangeTooLarge(0n, 100_000_000n, 1000);
  const BLOCK_HASH = `0x${'ab'.repeat(32)}`;

  it('refuses the range bypass in every spelling, over HTTP, WebSocket and eth_newFilter', async () => {
    const holder = await accountWithKey(server().url, server().db);
    const url = holder.url(NETWORK);
    const ranges: Array<[Record<string, unknown>, { code: number; message: string }]> = [
      [
        { fromBlock: '0x0', toBlock: '0x5f5e100', blockHash: null },
        { code: RpcErrorCodes.limitExceeded, message: huge },
      ],
      [
        { FROMBLOCK: '0x0', TOBLOCK: '0x5f5e100' },
        { code: RpcErrorCodes.limitExceeded, message: huge },
      ],
      [
        { fromBlock: '0x5f5e0ff', toBlock: '0x5f5e100', FromBlock: '0x0' },
        { code: RpcErrorCodes.limitExceeded, message: huge },
      ],
      [
        { fromblock: '0x0', toBlocK: '0x5f5e100', BlockHash: null },
        { code: RpcErrorCodes.limitExceeded, message: huge },
      ],
      [
        { blockHash: BLOCK_HASH, fromBlock: '0x0' },
        { code: RpcErrorCodes.invalidParams, message: 'blockHash cannot be combined with fromBlock or toBlock' },
      ],
    ];
    const socket = await WsClient.open(
      `${url.replace(/^http/, 'ws').replace(`/rpc/${NETWORK}`, `/rpc/${NETWORK}/ws`)}`,
    );
    let refused = 0;
    for (const [filter, error] of ranges) {
      for (const method of ['eth_getLogs', 'eth_newFilter']) {
        const overHttp = await rpcCall(url, { jsonrpc: '2.0', id: 1, method, params: [filter] });
        expect([method, filter, overHttp.body.error]).toEqual([method, filter, error]);
        const overWs = await socket.call(method, [filter]);
        expect([method, filter, overWs.error]).toEqual([method, filter, error]);
        refused += 2;
      }
    }
    // Within the limit, any spelling is served, as the node reads it.
    const served = await rpcCall(url, {
      jsonrpc: '2.0',
      id: 1,
      method: 'eth_getLogs',
      params: [{ FROMBLOCK: '0x0', toBlock: '0x0' }],
    });
    expect(served.body.result).toEqual([]);
    socket.socket.close();
    reportFigures('the eth_getLogs range guard cannot be escaped', { spellings: ranges.length, refused });
  });

  it('refuses eth_getFilterLogs of a filter that followed the head past the limit', async () => {
    const holder = await accountWithKey(server().url, server().db);
    const url = holder.url(NETWORK);
    const call = (method: string, params: unknown[]) => rpcCall(url, { jsonrpc: '2.0', id: 1, method, params });
    const head = async () =>
      BigInt(
        (
          (await (
            await fetch(node.url, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber"}',
            })
          ).json()) as { result: string }
        ).result,
      );
    const from = await head();
    const filterId = (await call('eth_newFilter', [{ fromBlock: `0x${from.toString(16)}` }])).body.result as string;
    expect((await call('eth_getFilterLogs', [filterId])).body.result).toEqual([]);
    await fetch(node.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'anvil_mine', params: ['0x3e8'] }),
    });
    const to = await head();
    const refused = await until('the gateway sees the new head', async () => {
      const answer = await call('eth_getFilterLogs', [filterId]);
      return answer.body.error ? answer : undefined;
    });
    expect(refused.body.error).toEqual({
      code: RpcErrorCodes.limitExceeded,
      message: RpcMessages.logsRangeTooLarge(from, to, 1000),
    });
    // Its changes since the last poll are still served.
    expect((await call('eth_getFilterChanges', [filterId])).body.result).toEqual([]);
  });
});

describe('node filters belong to the account that made them', () => {
  const secret = 'a-shared-secret-of-the-processes-0123456789';
  const env = { RPC_UPSTREAMS: JSON.stringify({ [NETWORK]: [node.url] }), AUTH_HMAC_SECRET: secret };
  const first = serverFor(pglite, env);

  it('another account naming a filter id, on any process, gets "filter not found" and leaves it untouched', async () => {
    const owner = await accountWithKey(first().url, first().db);
    const other = await accountWithKey(first().url, first().db);
    const call = (url: string, method: string, params: unknown[]) =>
      rpcCall(url, { jsonrpc: '2.0', id: 1, method, params });
    const made = await call(owner.url(NETWORK), 'eth_newBlockFilter', []);
    const filterId = made.body.result as string;
    expect(filterId).toMatch(/^0x[0-9a-f]+$/);
    const notFound = { code: RpcErrorCodes.filterNotFound, message: 'filter not found' };
    for (const method of ['eth_getFilterChanges', 'eth_getFilterLogs', 'eth_uninstallFilter']) {
      expect([method, (await call(other.url(NETWORK), method, [filterId])).body.error]).toEqual([method, notFound]);
    }
    // The node's own id, stripped of the gateway's tag, is no way in either.
    const bare = `0x${filterId.slice(66)}`;
    expect((await call(other.url(NETWORK), 'eth_getFilterChanges', [bare])).body.error).toEqual(notFound);
    // A second process of the same deployment (same secret, same database) knows whose filter it is.
    const second = await startServer(first().db, env);
    try {
      const secondUrl = (holder: typeof owner) => holder.url(NETWORK).replace(first().url, second.url);
      expect((await call(secondUrl(other), 'eth_uninstallFilter', [filterId])).body.error).toEqual(notFound);
      expect((await call(secondUrl(owner), 'eth_getFilterChanges', [filterId])).body.result).toBeInstanceOf(Array);
    } finally {
      await second.close();
    }
    expect((await call(owner.url(NETWORK), 'eth_uninstallFilter', [filterId])).body.result).toBe(true);
  });
});
