import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { pglite } from '../testing/databases.ts';
import { accountWithKey, rpcCall } from '../testing/keys.ts';
import { serverFor } from '../testing/server.ts';
import { WsClient } from '../testing/ws-client.ts';

const TOKEN = 'metrics-token-0123456789abcdef';
const DASHBOARD = path.resolve(import.meta.dirname, '../../../../docs/grafana/ebs-console.json');
const CHAIN_ID = { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] };

describe('GET /metrics with METRICS_TOKEN', () => {
  const server = serverFor(pglite, { METRICS_TOKEN: TOKEN });
  const scrape = (authorization?: string) =>
    fetch(`${server().url}/metrics`, authorization ? { headers: { authorization } } : {});

  it('answers 401 to anyone without the token, and the Prometheus text to its holder', async () => {
    for (const authorization of [undefined, 'Bearer wrong-token', `Basic ${TOKEN}`, TOKEN]) {
      const refused = await scrape(authorization);
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toBe('Bearer');
      expect(await refused.text()).not.toContain('ebs_');
    }
    const holder = await accountWithKey(server().url, server().db);
    await rpcCall(holder.url('ethereum/mainnet'), CHAIN_ID);
    await rpcCall(holder.url('ethereum/mainnet'), [CHAIN_ID, { ...CHAIN_ID, id: 2 }]);
    const socket = await WsClient.open(holder.url('ethereum/mainnet').replace(/^http/, 'ws').replace('?', '/ws?'));
    await socket.call('eth_subscribe', ['newHeads']);

    await server().deps.rpc.insight.flush();
    const answer = await scrape(`Bearer ${TOKEN}`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await answer.text();
    // Three calls over HTTP, the subscribe over WebSocket.
    expect(text).toContain('ebs_rpc_calls_total{network="ethereum/mainnet"} 4');
    expect(text).toContain('ebs_rpc_ws_connections 1');
    expect(text).toContain('ebs_rpc_ws_upstream_subscriptions{network="ethereum/mainnet"} 1');
    expect(text).toMatch(/ebs_rpc_upstream_up\{network="ethereum\/mainnet",upstream="http:\/\/127\.0\.0\.1:\d+"\} 1/);
    expect(text).toMatch(/ebs_rpc_cache_hits_total\{network="ethereum\/mainnet"\} \d+/);
    expect(text).toMatch(/^ebs_process_resident_memory_bytes \d+/m);
    expect(text).toMatch(/^ebs_nodejs_eventloop_lag_p99_seconds [\d.e-]+/m);
    // The per-method figures: calls, failures by kind, latency.
    expect(text).toContain('ebs_rpc_method_calls_total{network="ethereum/mainnet",method="eth_chainId"} 3');
    expect(text).toContain('ebs_rpc_method_errors_total{network="ethereum/mainnet",method="eth_chainId",kind="rpc"} 0');
    expect(text).toContain(
      'ebs_rpc_method_latency_seconds_bucket{network="ethereum/mainnet",method="eth_chainId",le="+Inf"} 3',
    );
    expect(text).toContain('ebs_rpc_method_latency_seconds_count{network="ethereum/mainnet",method="eth_chainId"} 3');
    const under10s =
      /ebs_rpc_method_latency_seconds_bucket\{network="ethereum\/mainnet",method="eth_chainId",le="10"\} (\d+)/;
    expect(Number(text.match(under10s)?.[1])).toBe(3);
    // The network's node: up, not lagging, the calls it was sent and how long it took; no retry, no hedge.
    const node = 'network="ethereum/mainnet",upstream="http://127.0.0.1:\\d+"';
    expect(text).toMatch(new RegExp(`^ebs_rpc_upstream_state\\{${node}\\} 0$`, 'm'));
    expect(text).toMatch(new RegExp(`^ebs_rpc_upstream_lag_blocks\\{${node}\\} 0$`, 'm'));
    const selected = Number(text.match(new RegExp(`^ebs_rpc_upstream_selected_total\\{${node}\\} (\\d+)$`, 'm'))?.[1]);
    expect(selected).toBeGreaterThan(0);
    expect(text).toMatch(new RegExp(`^ebs_rpc_upstream_latency_seconds_count\\{${node}\\} ${selected}$`, 'm'));
    expect(text).toMatch(
      new RegExp(`^ebs_rpc_upstream_latency_seconds_bucket\\{${node},le="\\+Inf"\\} ${selected}$`, 'm'),
    );
    expect(text).toMatch(/^# TYPE ebs_rpc_upstream_latency_seconds histogram$/m);
    expect(text).toContain('ebs_rpc_retries_total{network="ethereum/mainnet"} 0');
    expect(text).toContain('ebs_rpc_hedges_total{network="ethereum/mainnet"} 0');
    // Read from the database: this server's one account holds its 10 USD of credit.
    expect(text).toContain('ebs_ledger_usd{total="balance"} 10');
    expect(text).toContain('ebs_ledger_accounts 1');
    expect(text).toMatch(/^# TYPE ebs_job_runs_total counter/m);
    expect(text).toMatch(/^# TYPE ebs_webhook_deliveries gauge/m);
    socket.close();

    // Every metric the operator's Grafana dashboard queries is one this server exports.
    const dashboard = JSON.parse(await readFile(DASHBOARD, 'utf8')) as {
      panels: Array<{ targets: Array<{ expr: string }> }>;
    };
    const queried = new Set(
      dashboard.panels.flatMap((panel) => panel.targets.flatMap((target) => target.expr.match(/\bebs_\w+/g) ?? [])),
    );
    expect(queried.size).toBeGreaterThan(8);
    const exported = new Set([...text.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]));
    // A histogram is queried by its series: name_bucket, name_sum, name_count.
    const family = (name: string) => name.replace(/_(bucket|sum|count)$/, '');
    expect([...queried].filter((name) => !exported.has(name) && !exported.has(family(name)))).toEqual([]);
  });
});

describe('GET /metrics without METRICS_TOKEN', () => {
  const server = serverFor(pglite);

  it('is not served: 404 as an unknown route, never the metrics', async () => {
    const answer = await fetch(`${server().url}/metrics`, { headers: { authorization: 'Bearer anything' } });
    expect(answer.status).toBe(404);
    expect(await answer.json()).toMatchObject({ statusCode: 404, error: 'Not Found' });
  });
});
