import { createHash } from 'node:crypto';
import type { NotifyActivity, NotifyPayload } from '@ebs/contract';
import { formatUnits, toHex } from 'viem';
import type { Transfer } from './block-activity.ts';
import type { TokenInfo } from './token-info.ts';

/** A transfer as a delivery tells it: amounts in the token's units where known, raw in hex. */
export function describeTransfer(transfer: Transfer, nativeToken: string, token?: TokenInfo): NotifyActivity {
  const decimals = transfer.category === 'NATIVE' ? 18 : transfer.category === 'ERC20' ? token?.decimals : null;
  return {
    category: transfer.category,
    fromAddress: transfer.from,
    toAddress: transfer.to,
    value:
      decimals === null || decimals === undefined ? transfer.amount.toString() : formatUnits(transfer.amount, decimals),
    rawValue: toHex(transfer.amount),
    asset: transfer.category === 'NATIVE' ? nativeToken : (token?.symbol ?? null),
    contractAddress: transfer.contract,
    tokenId: transfer.tokenId === null ? null : transfer.tokenId.toString(),
    txHash: transfer.txHash,
    logIndex: transfer.logIndex,
  };
}

export type EventKind = 'SEEN' | 'CONFIRMED' | 'REMOVED';

const digest = (text: string) => `evt_${createHash('sha256').update(text).digest('hex').slice(0, 32)}`;

/**
 * The id of a block's activity for a webhook, as first seen: the same each time that block is
 * read (a second scanner, a replay), so a receiver can tell an event it already has. `generation`
 * counts the earlier times a reorg took this very block back (a chain that flips A → B → A tells of
 * A again, under a new id); `part` numbers the parts of a block with more activity than one message holds.
 */
export const seenEventId = (webhookId: string, blockHash: string, generation = 0, part = 0) =>
  digest(`${webhookId}:${blockHash.toLowerCase()}:SEEN${generation ? `:${generation}` : ''}${part ? `:p${part}` : ''}`);

/** The id of an event's confirmation or removal, from the id of the event as seen. */
export const eventIdOf = (seenId: string, kind: EventKind) => (kind === 'SEEN' ? seenId : digest(`${seenId}:${kind}`));

/** Transfers in one message at most: a block with more for one webhook comes in parts (a few hundred KB each). */
export const MAX_ACTIVITY_PER_MESSAGE = 1000;

export function payloadOf(input: {
  webhookId: string;
  network: string;
  block: NotifyPayload['block'];
  kind: EventKind;
  seenId: string;
  replay: boolean;
  activity: NotifyActivity[];
  part?: NotifyPayload['part'];
}): NotifyPayload {
  return {
    type: 'ADDRESS_ACTIVITY',
    webhookId: input.webhookId,
    eventId: eventIdOf(input.seenId, input.kind),
    network: input.network,
    block: input.block,
    confirmed: input.kind === 'CONFIRMED',
    removed: input.kind === 'REMOVED',
    replay: input.replay,
    activity: input.activity,
    ...(input.part ? { part: input.part } : {}),
  };
}
