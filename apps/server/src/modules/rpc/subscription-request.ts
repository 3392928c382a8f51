import { RpcMessages } from '@ebs/contract';

export type SubscriptionKind = 'newHeads' | 'logs' | 'newPendingTransactions';

/** An eth_subscribe as the gateway sends it upstream, and the key that tells identical ones apart. */
export interface SubscriptionRequest {
  kind: SubscriptionKind;
  /** eth_subscribe's params, normalised (addresses and topics in lower case). */
  params: unknown[];
  key: string;
  /** A logs filter's addresses and topics, for reading the logs of missed blocks. */
  filter?: { address?: string | string[]; topics?: unknown[] };
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const TOPIC = /^0x[0-9a-fA-F]{64}$/;
/** Bounds on a logs filter: what a node would take is far more than any dApp asks for. */
const MAX_ADDRESSES = 1_000;
const MAX_TOPIC_CHOICES = 100;

const lower = (value: string) => value.toLowerCase();

function readAddress(value: unknown): string | string[] | null {
  if (typeof value === 'string') return ADDRESS.test(value) ? lower(value) : null;
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_ADDRESSES) return null;
  return value.every((a) => typeof a === 'string' && ADDRESS.test(a)) ? value.map((a: string) => lower(a)) : null;
}

function readTopics(value: unknown): unknown[] | null {
  if (!Array.isArray(value) || value.length > 4) return null;
  const topics: unknown[] = [];
  for (const topic of value) {
    if (topic === null) topics.push(null);
    else if (typeof topic === 'string' && TOPIC.test(topic)) topics.push(lower(topic));
    else if (
      Array.isArray(topic) &&
      topic.length <= MAX_TOPIC_CHOICES &&
      topic.every((t) => typeof t === 'string' && TOPIC.test(t))
    ) {
      topics.push(topic.map((t: string) => lower(t)));
    } else return null;
  }
  return topics;
}

/**
 * eth_subscribe's params, checked: "newHeads", "logs" with an optional filter of `address` (one or
 * a list) and `topics` (up to four, each null, a topic or a list of topics), or
 * "newPendingTransactions" (with geth's optional `true` for whole transactions). Anything else is
 * refused with a message saying what is taken.
 */
export function readSubscription(params: unknown): SubscriptionRequest | string {
  if (!Array.isArray(params) || typeof params[0] !== 'string') return RpcMessages.subscriptionKinds;
  const [kind, option] = params;
  if (kind === 'newHeads' && params.length === 1) return { kind, params: [kind], key: kind };
  if (
    kind === 'newPendingTransactions' &&
    (params.length === 1 || (params.length === 2 && typeof option === 'boolean'))
  ) {
    const normalised = option === true ? [kind, true] : [kind];
    return { kind, params: normalised, key: JSON.stringify(normalised) };
  }
  if (kind !== 'logs' || params.length > 2) return RpcMessages.subscriptionKinds;
  if (option === undefined) return { kind, params: [kind], key: kind, filter: {} };
  if (typeof option !== 'object' || option === null || Array.isArray(option)) return RpcMessages.subscriptionKinds;
  const filter: { address?: string | string[]; topics?: unknown[] } = {};
  for (const [name, value] of Object.entries(option)) {
    if (name === 'address') {
      const address = readAddress(value);
      if (address === null) return RpcMessages.subscriptionKinds;
      filter.address = address;
    } else if (name === 'topics') {
      const topics = readTopics(value);
      if (topics === null) return RpcMessages.subscriptionKinds;
      filter.topics = topics;
    } else return RpcMessages.subscriptionKinds;
  }
  // In one order whatever the client's, so that identical filters share a subscription.
  const ordered = {
    ...(filter.address !== undefined ? { address: filter.address } : {}),
    ...(filter.topics !== undefined ? { topics: filter.topics } : {}),
  };
  const normalised = [kind, ordered];
  return { kind, params: normalised, key: JSON.stringify(normalised), filter: ordered };
}
