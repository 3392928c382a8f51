import { describe, expect, it } from 'vitest';
import { pglite } from '../../testing/databases.ts';
import { startFixedUpstream } from '../../testing/fixed-upstream.ts';
import { accountWithKey, rpcCall } from '../../testing/keys.ts';
import { reportFigures } from '../../testing/report.ts';
import { startServer } from '../../testing/server.ts';

const NETWORK = 'ethereum/sepolia';

describe('the gateway in front of a node that reads JSON keys case-insensitively (geth, Erigon)', () => {
  const FORWARDED_KEYS = ['id', 'jsonrpc', 'method', 'params'];
  /**
   * Each body hides a refused method (or other parameters) under a key geth folds onto a field.
   * The methods named are never answered from the gateway's cache: each body reaches the node.
   */
  const smuggled = [
    '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","Method":"debug_setHead","params":["0x1"]}',
    '{"jsonrpc":"2.0","id":2,"method":"eth_blockNumber","METHOD":"debug_setHead","params":["0x1"]}',
    '{"jsonrpc":"2.0","id":3,"method":"eth_blockNumber","\\u004dethod":"debug_setHead","params":["0x1"]}',
    '{"jsonrpc":"2.0","id":4,"method":"eth_getBalance","params":["0x0000000000000000000000000000000000000000","latest"],"paramſ":["0x1"]}',
    '[{"jsonrpc":"2.0","id":5,"method":"eth_blockNumber","mEthod":"debug_setHead"},{"jsonrpc":"2.0","id":6,"method":"eth_blockNumber"}]',
    '[{"jsonrpc":"2.0","id":7,"method":"anvil_mine"},{"jsonrpc":"2.0","id":8,"method":"eth_blockNumber","Method":"debug_setHead"}]',
  ];

  it('a call that hides a refused method under a differently-cased key (Method, METHOD, ſ) reaches the node with only the screened fields', async () => {
    const upstream = await startFixedUpstream(NETWORK);
    const opened = await pglite.open();
    const gateway = await startServer(opened.db, { RPC_UPSTREAMS: JSON.stringify({ [NETWORK]: [upstream.url] }) });
    try {
      const holder = await accountWithKey(gateway.url, gateway.db);
      const url = holder.url(NETWORK);
      for (const body of smuggled) expect((await rpcCall(url, body)).status).toBe(200);
      expect(upstream.received).toHaveLength(smuggled.length);
      const forwardedKeys = upstream.received.flatMap((text) =>
        [JSON.parse(text)].flat().map((c: Record<string, unknown>) => Object.keys(c).sort()),
      );
      for (const keys of forwardedKeys) expect(FORWARDED_KEYS).toEqual(expect.arrayContaining(keys));
      expect(upstream.received.filter((text) => /debug_setHead|ſ|\\u/i.test(text))).toEqual([]);
      // What the screen read is what the node runs: the parameters of the named field, nothing else.
      expect(JSON.parse(upstream.received[3] ?? '')).toEqual(JSON.parse(smuggled[3]!.replace(',"paramſ":["0x1"]', '')));
      // A batch of only the four fields is forwarded byte for byte; a single read that identical
      // calls may share goes in the gateway's own encoding of what it parsed.
      const plain = '[{ "jsonrpc": "2.0", "method": "eth_blockNumber", "params": [], "id": 9 }]';
      await rpcCall(url, plain);
      expect(upstream.received.at(-1)).toBe(plain);
      await rpcCall(url, '{ "jsonrpc": "2.0", "method": "eth_blockNumber", "params": [], "id": 10 }');
      expect(upstream.received.at(-1)).toBe('{"jsonrpc":"2.0","id":10,"method":"eth_blockNumber","params":[]}');
      reportFigures('gateway forwards only the screened fields of each call', {
        smuggledBodies: smuggled.length,
        forwardedWithOtherKeys: forwardedKeys.filter((keys) => keys.some((k) => !FORWARDED_KEYS.includes(k))).length,
        plainBodyForwardedAsSent: 1,
      });
    } finally {
      await gateway.close();
      await opened.close();
      await upstream.close();
    }
  });
});
