import type { RpcNetworkState } from '@ebs/contract';

/** The networks' status on the RPC and Status pages (ours: the spec has no status). */
export const StatusTexts = {
  states: { operational: 'Operational', degraded: 'Degraded', down: 'Down' } satisfies Record<RpcNetworkState, string>,
  intro:
    'Each network as the gateway sees it now, and the share of calls its nodes answered without an error in each of the last 24 hours (UTC). Refreshed every 15 seconds.',
  block: (head: number) => `Block ${head.toLocaleString('en-US')}`,
  noBlock: 'No block read yet',
  ago: (age: string) => `${age} ago`,
  hourAnswered: (hour: string, share: string) => `${hour} UTC: ${share} answered`,
  hourNoCalls: (hour: string) => `${hour} UTC: No calls`,
  dayAnswered: (share: string) => `${share} of calls answered in the last 24 hours`,
  dayNoCalls: 'No calls in the last 24 hours',
  /** The accessible name of a network's strip of hours. */
  lastDayOf: (network: string) => `${network}, the last 24 hours`,
} as const;
