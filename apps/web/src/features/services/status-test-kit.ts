import { RPC_NETWORKS, type RpcNetworkStatus, type RpcStatus, type RpcStatusHour } from '@ebs/contract';

/** The hour the test days start at: 2026-11-20 00:00 UTC, so the i-th hour reads i:00 UTC. */
const DAY_START = Date.parse('2026-11-20T00:00:00.000Z');

/** 24 hours, oldest first, with these shares (hour i has shares[i]); every call answered unless told. */
export const lastDay = (shares: readonly (number | null)[] = []): RpcStatusHour[] =>
  Array.from({ length: 24 }, (_, i) => {
    const share = shares[i];
    return { hour: new Date(DAY_START + i * 3_600_000).toISOString(), answeredShare: share === undefined ? 1 : share };
  });

/** A network that is operational at block 1,000 seen 1 s ago, every call answered, unless `patch` says otherwise. */
export const networkStatus = (network: string, patch: Partial<RpcNetworkStatus> = {}): RpcNetworkStatus => ({
  network,
  head: 1000,
  headAgeSeconds: 1,
  status: 'operational',
  lastDay: lastDay(),
  ...patch,
});

/** The ten networks in the RPC page's order, each as networkStatus makes it, with `patches` by path. */
export const allNetworks = (patches: Record<string, Partial<RpcNetworkStatus>> = {}): RpcStatus => ({
  networks: RPC_NETWORKS.map((network) => networkStatus(network.path, patches[network.path])),
});
