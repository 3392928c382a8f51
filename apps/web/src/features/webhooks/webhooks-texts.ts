import type { NotifyCategory } from '@ebs/contract';

const count = (n: number) => n.toLocaleString('en-US');
const plural = (n: number, one: string, many: string) => `${count(n)} ${n === 1 ? one : many}`;

/**
 * Interface texts of the address-activity webhook pages (ours: the spec has no such pages). The
 * server's messages, which the form checks repeat, live in the contract's `NotifyMessages`.
 */
export const WebhooksTexts = {
  intro:
    'A webhook watches addresses on one network and posts the native and token transfers to and from them to your URL, block by block.',
  createWebhook: 'Create webhook',
  allWebhooks: 'All webhooks',
  noWebhooks: 'No webhooks yet. Create one with Create webhook to be told of transfers to and from your addresses.',

  // a webhook's fields
  id: 'ID',
  name: 'Name',
  network: 'Network',
  url: 'URL',
  categories: 'Categories',
  confirmations: 'Confirmations',
  status: 'Status',
  addresses: 'Addresses',
  lastDelivery: 'Last delivery',
  failingSince: 'Failing since',
  createdAt: 'Created',
  categoryNames: {
    NATIVE: 'Native',
    ERC20: 'ERC-20',
    ERC721: 'ERC-721',
    ERC1155: 'ERC-1155',
  } satisfies Record<NotifyCategory, string>,
  noDeliveryYet: 'None yet',
  httpStatus: (code: number | null) => (code === null ? 'no answer' : `HTTP ${code}`),
  lastDeliveryText: (at: string, code: number | null) => `${at} · ${code === null ? 'no answer' : `HTTP ${code}`}`,
  disabledHint: (reason: string | null) => reason ?? 'Disabled.',
  confirmationsText: (n: number) => (n === 0 ? 'None (told at once)' : plural(n, 'block', 'blocks')),

  // the create form
  namePlaceholder: 'e.g. Treasury deposits',
  urlPlaceholder: 'https://',
  urlHint: 'Each delivery is posted to this URL as JSON, signed with the account signing secret (Settings).',
  confirmationsHint: 'Blocks to wait before an event is told as confirmed; 0 tells of it in its own block.',
  addressesHint: 'Paste addresses separated by new lines, commas or spaces, or add those of a CSV file.',
  addressesPlaceholder: '0x…',
  uploadCsv: 'Add from CSV file',
  parsedCount: (addresses: number, duplicates: number, invalid: number) =>
    [
      plural(addresses, 'address', 'addresses'),
      duplicates > 0 && `${plural(duplicates, 'duplicate', 'duplicates')} left out`,
      invalid > 0 && `${plural(invalid, 'entry', 'entries')} not an address`,
    ]
      .filter(Boolean)
      .join(', '),
  fileRead: (file: string, found: number, skipped: number) =>
    `${file}: ${plural(found, 'address', 'addresses')} added${skipped ? `; ${plural(skipped, 'value', 'values')} starting with 0x left out (not 40 hexadecimal digits)` : ''}.`,
  fileUnreadable: (file: string) => `${file} could not be read.`,
  networkRequired: 'Choose a network.',
  create: 'Create',
  cancel: 'Cancel',
  sendingAddresses: (sent: number, total: number) => `Adding addresses: ${count(sent)} of ${count(total)}`,
  sendingAddressesLabel: 'Addresses added so far',
  partlyCreated: (sent: number, total: number, why: string) =>
    `The webhook was created with ${count(sent)} of ${count(total)} addresses: ${why} Add the rest on this page.`,

  // the webhook's page
  details: 'Details',
  enable: 'Enable',
  disable: 'Disable',
  test: 'Test',
  replay: 'Replay',
  delete: 'Delete',
  close: 'Close',
  enableTitle: 'Enable webhook',
  enableQuestion: 'Enable this webhook? Deliveries start again from the next block.',
  disableTitle: 'Disable webhook',
  disableQuestion: 'Disable this webhook? Nothing is delivered while it is disabled.',
  deleteTitle: 'Delete webhook',
  deleteQuestion: 'Delete this webhook? It stops watching its addresses, and cannot be restored.',
  testTitle: 'Test delivery',
  testIntro: 'A signed sample delivery with no activity was posted to the URL. The receiver answered:',
  statusCode: 'Status code',
  noAnswer: 'No answer',
  duration: 'Duration',
  milliseconds: (ms: number) => `${count(ms)} ms`,
  responseBody: 'Response body',
  emptyBody: '(empty)',
  replayTitle: 'Replay blocks',
  replayIntro: (blocks: number) =>
    `The range's events are delivered again, marked as a replay, for the addresses watched now. At most ${count(blocks)} blocks.`,
  fromBlock: 'From block',
  toBlock: 'To block',
  blockRequired: 'Enter a block number: a whole number from 0.',
  startReplay: 'Start replay',
  notFoundHint: 'It may have been deleted.',

  // the addresses card
  searchAddresses: 'Search addresses',
  searchPlaceholder: 'Part of an address',
  /** The server counts the addresses the search matches, or all of them without one. */
  addressTotal: (total: number, searching: boolean) => `${searching ? 'Matching' : 'Total'}: ${count(total)}`,
  noAddresses: 'No addresses.',
  noMatchingAddresses: 'No address matches this search.',
  address: 'Address',
  actions: 'Actions',
  remove: 'Remove',
  removeAddress: (address: string) => `Remove ${address}`,
  previous: 'Previous',
  next: 'Next',
  pageOf: (page: number) => `Page ${page}`,
  addAddresses: 'Add addresses',
  addressesToAdd: 'Addresses to add',
  changed: (added: number, given: number) =>
    `${plural(added, 'address', 'addresses')} added${given > added ? `, ${count(given - added)} already watched` : ''}.`,

  // the deliveries card
  deliveries: 'Deliveries',
  refresh: 'Refresh',
  refreshHint: 'New deliveries show here every few seconds.',
  time: 'Time',
  eventId: 'Event ID',
  block: 'Block',
  kind: 'Kind',
  activity: 'Activity',
  lastHttpStatus: 'Last HTTP status',
  noDeliveries: 'No deliveries yet. They show here once a watched address has activity, or after Test.',
  kinds: {
    confirmed: 'confirmed',
    unconfirmed: 'unconfirmed',
    removed: 'removed',
    replay: 'replay',
    test: 'test',
  },
  attempts: 'Attempts',
  attempt: 'Attempt',
  at: 'At',
  error: 'Error',
  messageId: 'Message ID (webhook-id)',
  blockHash: 'Block hash',
  nextAttemptAt: 'Next attempt at',
  noAttempts: 'Not attempted yet.',
} as const;
