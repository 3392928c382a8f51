import { findRpcNetwork, RPC_NETWORKS, type RpcStatus } from '@ebs/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pglite } from '../../testing/databases.ts';
import { accountWithKey, rpcCall } from '../../testing/keys.ts';
import { until } from '../../testing/poll.ts';
import { HttpReply, type NodeCall, startScriptedNode } from '../../testing/scripted-node.ts';
import { startServer, type TestServer } from '../../testing/server.ts';

const hex = (n: number) => `0x${n.toString(16)}`;
const SERVED = 'ethereum/sepolia';
const FAILING = 'bsc/mainnet';
const HOUR_MS = 3_600_000;

describe('GET /api/v1.0/rpc/status', () => {
  const nodes: Array<Awaited<ReturnType<typeof startScriptedNode>>> = [];
  let server: TestServer;
  let closeDb: () => Promise<void>;
  const heads = { ahead: 500, behind: 480 };
  const scripted = (network: string, head: () => number, fails = false) =>
    startScriptedNode((call: NodeCall) => {
      if (call.method === 'eth_chainId') return hex(findRpcNetwork(network)?.chainId ?? 0);
      if (call.method === 'eth_blockNumber') return hex(head());
      return fails ? new HttpReply(503) : '0x1';
    });

  beforeAll(async () => {
    nodes.push(await scripted(SERVED, () => heads.ahead));
    nodes.push(await scripted(SERVED, () => heads.behind));
    nodes.push(await scripted(FAILING, () => 7, true));
    const opened = await pglite.open();
    closeDb = opened.close;
    server = await startServer(opened.db, {
      RPC_UPSTREAMS: JSON.stringify({
        [SERVED]: [nodes[0]?.url, nodes[1]?.url],
        [FAILING]: [nodes[2]?.url],
      }),
      RPC_HEAD_POLL_MS: '100',
      USAGE_FLUSH_SECONDS: '60',
    });
  });
  afterAll(async () => {
    await server?.close();
    await closeDb?.();
    await Promise.all(nodes.map((n) => n.close()));
  });

  it('answers anyone each network’s head, state and last 24 hours, in the success wrapper', async () => {
    const answer = await fetch(`${server.url}/api/v1.0/rpc/status`);
    expect(answer.status).toBe(200);
    const { statusCode, data } = (await answer.json()) as { statusCode: number; data: RpcStatus };
    expect(statusCode).toBe(200);
    expect(data.networks.map((n) => n.network)).toEqual(RPC_NETWORKS.map((n) => n.path));
    const served = data.networks.find((n) => n.network === SERVED);
    // One of its two nodes is 20 blocks behind: degraded, with the best head.
    expect(served).toMatchObject({ head: 500, status: 'degraded' });
    expect(served?.headAgeSeconds).toBeGreaterThanOrEqual(0);
    // Its only node answers, but every call it gets fails: the node is up for its head, the network
    // is answered.
    expect(data.networks.find((n) => n.network === FAILING)).toMatchObject({ head: 7 });
    // A network of the embedded default's local nodes is not started by a status read.
    expect(data.networks.find((n) => n.network === 'ethereum/mainnet')).toMatchObject({
      head: null,
      headAgeSeconds: null,
      status: 'operational',
    });
    for (const network of data.networks) {
      expect(network.lastDay).toHaveLength(24);
      const hours = network.lastDay.map((h) => Date.parse(h.hour));
      expect(hours.every((h, i) => i === 0 || h - (hours[i - 1] as number) === HOUR_MS)).toBe(true);
      expect(hours.at(-1)).toBe(Math.floor(Date.now() / HOUR_MS) * HOUR_MS);
    }
    // The same answer for a few seconds: one read serves everyone.
    expect(await server.deps.rpc.status.read()).toEqual(data);
    // A POST there is a gateway call, to a network named "status" that does not exist: JSON-RPC's answer.
    const posted = await rpcCall(`${server.url}/api/v1.0/rpc/status`, { jsonrpc: '2.0', id: 1, method: 'eth_chainId' });
    expect([posted.status, posted.body.jsonrpc, typeof posted.body.error?.message]).toEqual([404, '2.0', 'string']);
  });

  it('shows the share of calls answered without a node error this hour, and a node that catches up makes it operational', async () => {
    const holder = await accountWithKey(server.url, server.db);
    for (let i = 0; i < 6; i++) {
      const address = `0x${(i + 1).toString(16).padStart(40, '0')}`;
      const read = { jsonrpc: '2.0', id: i, method: 'eth_getBalance', params: [address, 'latest'] };
      expect((await rpcCall(holder.url(SERVED), read)).status).toBe(200);
      expect((await rpcCall(holder.url(FAILING), read)).status).toBe(502);
    }
    // Calls the key's rules or the screen refuse never reached a node: not counted.
    expect((await rpcCall(holder.url(SERVED), { jsonrpc: '2.0', id: 1, method: 'admin_peers' })).status).toBe(200);
    await server.deps.rpc.statusHours.flush();
    heads.ahead = 510;
    heads.behind = 510;
    const nodesOf = (network: string) =>
      server.deps.rpc.upstreamFigures().find((f) => f.network === network)?.nodes ?? [];
    await until('both nodes at the new head', async () =>
      nodesOf(SERVED).every((n) => n.state === 'up' && n.head === '510'),
    );
    // Past the few seconds the answer is kept.
    const later = Date.now() + 6000;
    const status = await server.deps.rpc.status.read(later);
    const thisHour = (network: string) => status.networks.find((n) => n.network === network)?.lastDay.at(-1);
    expect(thisHour(SERVED)?.answeredShare).toBe(1);
    expect(thisHour(FAILING)?.answeredShare).toBe(0);
    expect(thisHour('aurora/mainnet')?.answeredShare).toBeNull();
    expect(status.networks.find((n) => n.network === SERVED)).toMatchObject({ head: 510, status: 'operational' });
    // A head that has not moved for three block times (Sepolia: 12 s each) makes the network degraded.
    const stale = await server.deps.rpc.status.read(later + 40_000);
    expect(stale.networks.find((n) => n.network === SERVED)?.status).toBe('degraded');
  });
});
