import { RPC_NETWORKS, type RpcNetworkStatus, type RpcStatus } from '@ebs/contract';
import type { Db } from '../../db/database.ts';
import type { NetworkGateway } from './network-gateway.ts';
import { statusHoursSince } from './status-hours.store.ts';

const HOUR_MS = 3_600_000;
/** The answer is worked out at most this often (the endpoint is public). */
const FRESH_MS = 5000;

/**
 * What customers see of the networks (GET /api/v1.0/rpc/status): each one's best head, its age, its
 * state (upstreams.ts, `state`), and the share of its calls answered without a node error per hour
 * of the last 24 (every process's counts). A network served by configured nodes has them started by
 * the first read; the embedded default's local node starts with the network's first call only, and
 * reads as operational until then.
 */
export class NetworkStatus {
  private cached: { at: number; answer: Promise<RpcStatus> } | undefined;

  constructor(
    private readonly db: Db,
    private readonly networks: ReadonlyMap<string, NetworkGateway>,
    /** Whether a network's nodes may be started for the status alone (configured, not local). */
    private readonly startable: (path: string) => boolean,
  ) {}

  read(now = Date.now()): Promise<RpcStatus> {
    if (this.cached && now - this.cached.at < FRESH_MS) return this.cached.answer;
    const answer = this.build(now);
    this.cached = { at: now, answer };
    answer.catch(() => {
      if (this.cached?.answer === answer) this.cached = undefined;
    });
    return answer;
  }

  private async build(now: number): Promise<RpcStatus> {
    await Promise.all(
      [...this.networks.values()]
        .filter((gateway) => !gateway.upstreams.started && this.startable(gateway.network.path))
        .map((gateway) => gateway.upstreams.resolve().catch(() => undefined)),
    );
    const firstHour = Math.floor(now / HOUR_MS) * HOUR_MS - 23 * HOUR_MS;
    const counted = new Map<string, { calls: number; failed: number }>();
    for (const c of await statusHoursSince(this.db, firstHour)) counted.set(`${c.network}@${c.hour}`, c);
    const networks: RpcNetworkStatus[] = [];
    for (const network of RPC_NETWORKS) {
      const gateway = this.networks.get(network.path);
      if (!gateway) continue;
      const head = gateway.upstreams.headAge(now);
      const lastDay = Array.from({ length: 24 }, (_, i) => {
        const hour = firstHour + i * HOUR_MS;
        const c = counted.get(`${network.path}@${hour}`);
        return {
          hour: new Date(hour).toISOString(),
          answeredShare: c && c.calls > 0 ? (c.calls - c.failed) / c.calls : null,
        };
      });
      networks.push({
        network: network.path,
        head: head ? Number(head.head) : null,
        headAgeSeconds: head ? Math.max(0, Math.round(head.ageMs / 100) / 10) : null,
        status: gateway.upstreams.state(now),
        lastDay,
      });
    }
    return { networks };
  }
}
