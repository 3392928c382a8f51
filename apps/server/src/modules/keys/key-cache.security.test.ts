import { randomUUID } from 'node:crypto';
import { RpcErrorCodes, RpcMessages } from '@ebs/contract';
import type { KyselyPlugin } from 'kysely';
import { describe, expect, it } from 'vitest';
import { testDatabases } from '../../testing/databases.ts';
import { accountWithKey, rpcCall } from '../../testing/keys.ts';
import { until } from '../../testing/poll.ts';
import { reportFigures } from '../../testing/report.ts';
import { serverFor } from '../../testing/server.ts';
import { gatewayAccounts } from '../accounts/billing-status.ts';
import { KeyCache } from './key-cache.ts';

const CHAIN_ID = { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] };
const UNKNOWN_IDS = 8_000;
const MAX_MISSES = 2_000;

/** Counts the queries a database handle sends. */
function counted() {
  const counter = { reads: 0 };
  const plugin: KyselyPlugin = {
    transformQuery: (args) => {
      counter.reads += 1;
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
  return { counter, plugin };
}

for (const database of testDatabases) {
  describe(`the gateway’s key cache under made-up key ids (${database.name})`, () => {
    it('8 000 unknown key ids stay within the bound, are read once each in their window and never re-read', {
      timeout: 120_000,
    }, async () => {
      const { db, close } = await database.open();
      const { counter, plugin } = counted();
      const cache = new KeyCache(db.withPlugin(plugin), gatewayAccounts.enabled, {
        refreshMs: 60_000,
        missMs: 60_000,
        maxMisses: MAX_MISSES,
      });
      try {
        const ids = Array.from({ length: UNKNOWN_IDS }, () => randomUUID());
        const started = Date.now();
        for (let i = 0; i < ids.length; i += 500) await Promise.all(ids.slice(i, i + 500).map((id) => cache.get(id)));
        const firstPassMs = Date.now() - started;
        expect(counter.reads).toBe(UNKNOWN_IDS);
        // The periodic re-read of the cache does not touch them.
        await cache.refresh();
        expect(counter.reads).toBe(UNKNOWN_IDS);
        // Asked again within the window: answered from memory.
        const recent = ids.slice(-MAX_MISSES);
        await Promise.all(recent.map((id) => cache.get(id)));
        expect(counter.reads).toBe(UNKNOWN_IDS);
        expect(cache.size).toEqual({ keys: 0, misses: MAX_MISSES });
        reportFigures(`key cache under made-up key ids (${database.name})`, {
          unknownIds: UNKNOWN_IDS,
          reads: counter.reads,
          readsOnRefresh: 0,
          cachedMisses: cache.size.misses,
          bound: MAX_MISSES,
          firstPassMs,
        });
      } finally {
        cache.stop();
        await close();
      }
    });
  });
}

describe('failed key checks per client address', () => {
  const server = serverFor(testDatabases[0]!, { TRUST_PROXY: '1', RPC_FAILED_KEY_CHECKS_PER_MINUTE: '5' });
  const from = (address: string) => ({ 'content-type': 'application/json', 'x-forwarded-for': address });

  it('after repeated wrong keys from one address the gateway answers 429 to it, while another address still works', async () => {
    const holder = await accountWithKey(server().url, server().db);
    const url = holder.url('ethereum/mainnet');
    const guess = () => url.replace(holder.keyId, randomUUID());
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await rpcCall(guess(), CHAIN_ID, from('2001:db8:7:7::1'))).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    // Another made-up id from the same /64: refused for the rest of the minute, without a read.
    const refused = await rpcCall(guess(), CHAIN_ID, from('2001:db8:7:7:ffff::2'));
    expect([refused.status, refused.body.error]).toEqual([
      429,
      { code: RpcErrorCodes.rateLimited, message: RpcMessages.tooManyWrongKeys },
    ]);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const other = await until(
      'another address served',
      async () => {
        const answer = await rpcCall(url, CHAIN_ID, from('198.51.100.9'));
        return answer.status === 200 && answer;
      },
      5_000,
      50,
    );
    expect(other.body.result).toBe('0x1');
    reportFigures('failed key checks per client address', {
      limitPerMinute: 5,
      wrongKeysBefore429: statuses.filter((s) => s === 401).length,
      sameSlash64Refused: 1,
      otherAddressServed: 1,
    });
  });

  it('a valid key keeps working from an address that sent many wrong keys', async () => {
    const holder = await accountWithKey(server().url, server().db);
    const url = holder.url('ethereum/mainnet');
    const shared = (n: number) => from(`2001:db8:8:8::${n.toString(16)}`);
    expect((await rpcCall(url, CHAIN_ID, shared(1))).status).toBe(200);
    // Someone else behind the same carrier NAT or /64 guesses keys.
    const guesses: number[] = [];
    for (let i = 0; i < 20; i++) {
      guesses.push((await rpcCall(url.replace(holder.keyId, randomUUID()), CHAIN_ID, shared(2))).status);
    }
    expect(guesses).toEqual([...Array(5).fill(401), ...Array(15).fill(429)]);
    const served: number[] = [];
    for (let i = 0; i < 10; i++) served.push((await rpcCall(url, CHAIN_ID, shared(1))).status);
    expect(served).toEqual(Array(10).fill(200));
    // The right id with a wrong secret is a failed check like any other.
    const wrongSecret = await rpcCall(
      url.replace(holder.key, `${holder.key.slice(0, -1)}${holder.key.endsWith('0') ? '1' : '0'}`),
      CHAIN_ID,
      shared(1),
    );
    expect(wrongSecret.status).toBe(429);
    // A key this process has not read yet would cost a database read: refused until the minute is over.
    const unread = await accountWithKey(server().url, server().db);
    expect((await rpcCall(unread.url('ethereum/mainnet'), CHAIN_ID, shared(3))).status).toBe(429);
    reportFigures('a valid key keeps working from an address that sent many wrong keys', {
      limitPerMinute: 5,
      wrongKeys: guesses.length,
      wrongKeysRefused429: guesses.filter((s) => s === 429).length,
      validKeyCallsServed: served.filter((s) => s === 200).length,
      wrongSecretRefused: 1,
      unreadKeyRefused: 1,
    });
  });
});
