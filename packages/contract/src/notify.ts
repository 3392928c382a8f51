import { type Static, type TLiteral, Type } from '@sinclair/typebox';
import { defaulted } from './endpoint.ts';
import { FORWARDING_NETWORKS } from './forwarding.ts';
import { NETWORKS, type Network } from './networks.ts';

/**
 * Address-activity webhooks (docs/api.md "Address-activity webhooks"): a webhook watches addresses
 * on one EVM network and is told, block by block, of the native and token transfers to and from them.
 */

/** What a webhook may watch: native value of top-level transactions, and the three token standards' transfer logs. */
export const NOTIFY_CATEGORIES = ['NATIVE', 'ERC20', 'ERC721', 'ERC1155'] as const;
export type NotifyCategory = (typeof NOTIFY_CATEGORIES)[number];

/** The networks a webhook may watch: token forwarding's EVM networks, by the same identifiers. */
export const NOTIFY_NETWORKS = NETWORKS.filter((n) => FORWARDING_NETWORKS[n].kind === 'evm');

export const NOTIFY_LIMITS = {
  addressesPerWebhook: 100_000,
  webhooksPerAccount: 20,
  /** Addresses in one list of a create or a change (`add`, `remove`). */
  addressesPerChange: 1_000,
  replayBlocks: 10_000,
  maxConfirmations: 64,
  nameLength: 64,
  urlLength: 2048,
} as const;

const literals = <T extends string>(values: readonly T[]) =>
  Type.Union(values.map((v) => Type.Literal(v)) as unknown as [TLiteral<T>, ...TLiteral<T>[]]);

export const NotifyCategorySchema = literals(NOTIFY_CATEGORIES);
export const NotifyNetwork = literals(NOTIFY_NETWORKS as Network[]);
export const NotifyWebhookStatus = Type.Union([Type.Literal('ENABLED'), Type.Literal('DISABLED')]);
export type NotifyWebhookStatus = Static<typeof NotifyWebhookStatus>;

const Uuid = Type.String({ format: 'uuid' });
const DateTime = Type.String({ format: 'date-time' });
/** Addresses are checked one by one by the server, so that the error names the one at fault. */
const AddressList = Type.Array(Type.String({ maxLength: 100 }), { maxItems: NOTIFY_LIMITS.addressesPerChange });

export const CreateNotifyWebhookBody = Type.Object(
  {
    name: Type.String({ maxLength: NOTIFY_LIMITS.nameLength }),
    network: Type.String({ maxLength: 40 }),
    url: Type.String({ maxLength: NOTIFY_LIMITS.urlLength }),
    addresses: AddressList,
    categories: Type.Optional(Type.Array(Type.String({ maxLength: 16 }), { maxItems: 8 })),
    confirmations: Type.Optional(Type.Integer()),
  },
  { additionalProperties: false },
);
export type CreateNotifyWebhookBody = Static<typeof CreateNotifyWebhookBody>;

/** The last delivery attempt of a webhook, as its list shows it. */
export const NotifyLastDelivery = Type.Object({
  at: DateTime,
  blockNumber: Type.Integer(),
  statusCode: Type.Union([Type.Integer(), Type.Null()]),
  status: Type.String(),
});

export const NotifyWebhook = Type.Object({
  id: Uuid,
  name: Type.String(),
  network: Type.String(),
  url: Type.String(),
  categories: Type.Array(NotifyCategorySchema),
  confirmations: Type.Integer(),
  status: NotifyWebhookStatus,
  /** Why it is disabled: by a person, or after failing for a day. */
  disabledReason: Type.Union([Type.String(), Type.Null()]),
  addressCount: Type.Integer(),
  /** Since when its deliveries fail (null while they succeed). */
  failingSince: Type.Union([DateTime, Type.Null()]),
  lastDelivery: Type.Union([NotifyLastDelivery, Type.Null()]),
  createdAt: DateTime,
});
export type NotifyWebhook = Static<typeof NotifyWebhook>;

export const NotifyWebhookList = Type.Object({ webhooks: Type.Array(NotifyWebhook) });
export type NotifyWebhookList = Static<typeof NotifyWebhookList>;

export const NotifyWebhookParams = Type.Object({ webhookId: Uuid }, { additionalProperties: false });
export const NotifyStatusBody = Type.Object({ status: NotifyWebhookStatus }, { additionalProperties: false });

export const NotifyAddressesBody = Type.Object(
  { add: Type.Optional(AddressList), remove: Type.Optional(AddressList) },
  { additionalProperties: false },
);
export type NotifyAddressesBody = Static<typeof NotifyAddressesBody>;
/** What a change did: addresses newly watched and no longer watched (already so: not counted). */
export const NotifyAddressesResult = Type.Object({
  added: Type.Integer(),
  removed: Type.Integer(),
  addressCount: Type.Integer(),
});
export type NotifyAddressesResult = Static<typeof NotifyAddressesResult>;

export const NotifyAddressQuery = Type.Object(
  {
    limit: defaulted(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
    /** The last address of the previous page. */
    cursor: Type.Optional(Type.String({ maxLength: 42 })),
    /** Part of an address (hex), to find it among many. */
    search: Type.Optional(Type.String({ maxLength: 42 })),
  },
  { additionalProperties: false },
);
export const NotifyAddressPage = Type.Object({
  addresses: Type.Array(Type.String()),
  /** Pass as `cursor` for the next page; null on the last. */
  nextCursor: Type.Union([Type.String(), Type.Null()]),
  total: Type.Integer(),
});
export type NotifyAddressPage = Static<typeof NotifyAddressPage>;

export const NotifyReplayBody = Type.Object(
  { fromBlock: Type.Integer({ minimum: 0 }), toBlock: Type.Integer({ minimum: 0 }) },
  { additionalProperties: false },
);
export type NotifyReplayBody = Static<typeof NotifyReplayBody>;
export const NotifyReplay = Type.Object({
  id: Uuid,
  fromBlock: Type.Integer(),
  toBlock: Type.Integer(),
  /** The next block to read; past toBlock once done. */
  nextBlock: Type.Integer(),
  status: Type.Union([Type.Literal('RUNNING'), Type.Literal('DONE')]),
});
export type NotifyReplay = Static<typeof NotifyReplay>;

export const NotifyDeliveryQuery = Type.Object(
  {
    limit: defaulted(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    offset: defaulted(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 })),
  },
  { additionalProperties: false },
);

/** One attempt to deliver: the answer's HTTP status, or the error when none came. */
export const NotifyAttempt = Type.Object({
  attempt: Type.Integer(),
  at: DateTime,
  statusCode: Type.Union([Type.Integer(), Type.Null()]),
  durationMs: Type.Integer(),
  /** Why it did not count: the start of a non-2xx answer, or why no answer came; null for a 2xx. */
  error: Type.Union([Type.String(), Type.Null()]),
});
export type NotifyAttempt = Static<typeof NotifyAttempt>;

export const NotifyDeliveryStatus = Type.Union([
  Type.Literal('PENDING'),
  Type.Literal('DELIVERED'),
  Type.Literal('FAILED'),
]);

/** One message of the log: an event (a block's activity, its confirmation or removal) and its attempts. */
export const NotifyDelivery = Type.Object({
  id: Type.String(),
  eventId: Type.String(),
  /** The `webhook-id` header of every attempt. */
  messageId: Type.String(),
  blockNumber: Type.Integer(),
  blockHash: Type.String(),
  confirmed: Type.Boolean(),
  removed: Type.Boolean(),
  replay: Type.Boolean(),
  test: Type.Boolean(),
  activityCount: Type.Integer(),
  status: NotifyDeliveryStatus,
  nextAttemptAt: Type.Union([DateTime, Type.Null()]),
  attempts: Type.Array(NotifyAttempt),
  createdAt: DateTime,
});
export type NotifyDelivery = Static<typeof NotifyDelivery>;
export const NotifyDeliveryList = Type.Object({ deliveries: Type.Array(NotifyDelivery), total: Type.Integer() });
export type NotifyDeliveryList = Static<typeof NotifyDeliveryList>;

/** What the receiver answered to the signed test message. */
export const NotifyTestResult = Type.Object({
  statusCode: Type.Union([Type.Integer(), Type.Null()]),
  durationMs: Type.Integer(),
  body: Type.String(),
});
export type NotifyTestResult = Static<typeof NotifyTestResult>;

/** One transfer in a delivery. */
export interface NotifyActivity {
  category: NotifyCategory;
  fromAddress: string;
  toAddress: string;
  /** Decimal text in the token's units where they are known (ether for native value), else the raw integer. */
  value: string;
  /** The amount as the chain holds it, hex. */
  rawValue: string;
  /** The token's symbol where known (the network's native token for NATIVE). */
  asset: string | null;
  /** The token contract; null for NATIVE. */
  contractAddress: string | null;
  /** ERC-721 and ERC-1155 token id, decimal text. */
  tokenId: string | null;
  txHash: string;
  /** The log's index in the block; null for NATIVE. */
  logIndex: number | null;
}

/** The body of every delivery. */
export interface NotifyPayload {
  type: 'ADDRESS_ACTIVITY';
  webhookId: string;
  eventId: string;
  network: string;
  block: { number: number; hash: string; timestamp: number };
  confirmed: boolean;
  removed: boolean;
  replay: boolean;
  activity: NotifyActivity[];
  /** Only when the block's activity for this webhook is more than one message holds (1 000 transfers): which part this is. */
  part?: { index: number; count: number };
  /** Only on the sample a person sends from the console (Test): no block, no activity. */
  test?: true;
}

/** The address-activity webhooks' texts. */
export const NotifyMessages = {
  created: 'Webhook has been created.',
  deleted: 'Webhook has been deleted.',
  enabled: 'Webhook has been enabled.',
  disabled: 'Webhook has been disabled.',
  addressesUpdated: 'Addresses have been updated.',
  replayStarted: 'Replay has started.',
  notFound: 'This webhook does not exist.',
  nameRequired: 'Webhook name is required.',
  networkInvalid: (network: string) => `${network} is not a network webhooks can watch.`,
  networkUnavailable: (network: string) => `${network} has no node to watch right now.`,
  categoriesInvalid: `Categories are ${NOTIFY_CATEGORIES.join(', ')}.`,
  categoriesEmpty: 'Pick at least one category.',
  confirmationsInvalid: `Confirmations are a whole number from 0 to ${NOTIFY_LIMITS.maxConfirmations}.`,
  addressInvalid: (field: string, index: number, value: string) =>
    `${field}[${index}] is not an address: ${value.slice(0, 50)}`,
  addressesRequired: 'Add at least one address.',
  changeEmpty: 'Give addresses to add or to remove.',
  tooManyAddresses: `A webhook watches at most ${NOTIFY_LIMITS.addressesPerWebhook.toLocaleString('en-US')} addresses.`,
  tooManyWebhooks: `An account has at most ${NOTIFY_LIMITS.webhooksPerAccount} webhooks.`,
  replayRange: `A replay covers fromBlock to toBlock, at most ${NOTIFY_LIMITS.replayBlocks.toLocaleString('en-US')} blocks.`,
  replayRunning: 'A replay of this webhook is under way; start another once it is done.',
  replayDisabled: 'Enable the webhook to replay blocks.',
  replayAhead: (head: number) => `The network's latest block is ${head}; replay blocks up to it.`,
  disabledAfterFailures: 'Disabled: its deliveries failed for 24 hours.',
  disabledByUser: 'Disabled by a member of the account.',
} as const;

/** Resources of address-activity deliveries: one per network, priced per delivery. */
export const NOTIFY_PREFIX = 'NOTIFY_';
export const notifyResource = (network: Network) => `${NOTIFY_PREFIX}${network}`;
export const NOTIFY_RESOURCES = NOTIFY_NETWORKS.map(notifyResource);
export const isNotifyResource = (name: string) => name.startsWith(NOTIFY_PREFIX);
