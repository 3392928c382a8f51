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

/**
 * An event's id: the same for the same webhook, block and kind, so a receiver can tell a replay
 * or a second delivery of an event it already has.
 */
export const eventIdOf = (webhookId: string, blockHash: string, kind: EventKind) =>
  `evt_${createHash('sha256').update(`${webhookId}:${blockHash.toLowerCase()}:${kind}`).digest('hex').slice(0, 32)}`;

export function payloadOf(input: {
  webhookId: string;
  network: string;
  block: NotifyPayload['block'];
  kind: EventKind;
  replay: boolean;
  activity: NotifyActivity[];
}): NotifyPayload {
  return {
    type: 'ADDRESS_ACTIVITY',
    webhookId: input.webhookId,
    eventId: eventIdOf(input.webhookId, input.block.hash, input.kind),
    network: input.network,
    block: input.block,
    confirmed: input.kind === 'CONFIRMED',
    removed: input.kind === 'REMOVED',
    replay: input.replay,
    activity: input.activity,
  };
}
