import type { NotifyCategory } from '@ebs/contract';
import { decodeAbiParameters, type Hex, toEventSelector } from 'viem';

/** A block as `eth_getBlockByNumber(n, true)` answers it (the fields read here). */
export interface ChainBlock {
  number: string;
  hash: string;
  parentHash: string;
  timestamp: string;
  transactions: Array<{ hash: string; from: string; to: string | null; value: string; transactionIndex?: string }>;
}

/** A log as `eth_getLogs` answers it. */
export interface ChainLog {
  address: string;
  topics: string[];
  data: string;
  logIndex: string;
  transactionHash: string;
  transactionIndex: string;
}

/** One transfer before it is described for a person: amounts as the chain holds them. */
export interface Transfer {
  category: NotifyCategory;
  from: string;
  to: string;
  amount: bigint;
  contract: string | null;
  tokenId: bigint | null;
  txHash: string;
  txIndex: number;
  logIndex: number | null;
}

export const TRANSFER_TOPIC = toEventSelector('Transfer(address,address,uint256)');
export const TRANSFER_SINGLE_TOPIC = toEventSelector('TransferSingle(address,address,address,uint256,uint256)');
export const TRANSFER_BATCH_TOPIC = toEventSelector('TransferBatch(address,address,address,uint256[],uint256[])');
/** The topics asked of `eth_getLogs`: one call per block for all three standards. */
export const TRANSFER_TOPICS = [TRANSFER_TOPIC, TRANSFER_SINGLE_TOPIC, TRANSFER_BATCH_TOPIC];

/** The address in a 32-byte topic (left-padded). */
const topicAddress = (topic: string | undefined) => (topic ? `0x${topic.slice(-40).toLowerCase()}` : '');
const quantity = (hex: string | undefined) => (hex ? Number.parseInt(hex, 16) : 0);

/** The transfers one log records: ERC-20 and ERC-721 `Transfer`, ERC-1155 `TransferSingle` and `TransferBatch`. */
export function logTransfers(log: ChainLog): Transfer[] {
  const [topic0, t1, t2, t3] = log.topics;
  const base = {
    contract: log.address.toLowerCase(),
    txHash: log.transactionHash,
    txIndex: quantity(log.transactionIndex),
    logIndex: quantity(log.logIndex),
  };
  try {
    if (topic0 === TRANSFER_TOPIC && log.topics.length === 3) {
      return [
        {
          ...base,
          category: 'ERC20',
          from: topicAddress(t1),
          to: topicAddress(t2),
          amount: BigInt(log.data),
          tokenId: null,
        },
      ];
    }
    if (topic0 === TRANSFER_TOPIC && log.topics.length === 4) {
      return [
        {
          ...base,
          category: 'ERC721',
          from: topicAddress(t1),
          to: topicAddress(t2),
          amount: 1n,
          tokenId: BigInt(t3 ?? 0),
        },
      ];
    }
    if (topic0 === TRANSFER_SINGLE_TOPIC && log.topics.length === 4) {
      const [id, value] = decodeAbiParameters([{ type: 'uint256' }, { type: 'uint256' }], log.data as Hex);
      return [
        { ...base, category: 'ERC1155', from: topicAddress(t2), to: topicAddress(t3), amount: value, tokenId: id },
      ];
    }
    if (topic0 === TRANSFER_BATCH_TOPIC && log.topics.length === 4) {
      const [ids, values] = decodeAbiParameters([{ type: 'uint256[]' }, { type: 'uint256[]' }], log.data as Hex);
      return ids.map((id, i) => ({
        ...base,
        category: 'ERC1155' as const,
        from: topicAddress(t2),
        to: topicAddress(t3),
        amount: values[i] ?? 0n,
        tokenId: id,
      }));
    }
  } catch {
    // Data that does not decode as the standard says (a contract that only shares the event's name).
  }
  return [];
}

/**
 * The block's transfers that touch a watched address, grouped by the webhooks that watch it: one
 * pass over the block's transactions and transfer logs, a map lookup per address, whatever the
 * number of webhooks. A transfer between two addresses one webhook watches is listed once.
 * Native value counts for transactions that moved some (value > 0); whether they succeeded is
 * left to the caller (`succeeded`), which reads receipts only of the few that matched.
 */
export function matchBlock(
  block: ChainBlock,
  logs: ChainLog[],
  watchers: (address: string) => readonly string[] | undefined,
): Map<string, Transfer[]> {
  const matched = new Map<string, Transfer[]>();
  const add = (transfer: Transfer) => {
    const from = watchers(transfer.from);
    const to = transfer.to === transfer.from ? undefined : watchers(transfer.to);
    if (!from && !to) return;
    for (const webhook of new Set([...(from ?? []), ...(to ?? [])])) {
      const list = matched.get(webhook);
      if (list) list.push(transfer);
      else matched.set(webhook, [transfer]);
    }
  };
  for (const [index, tx] of block.transactions.entries()) {
    if (!tx.to || !tx.value || BigInt(tx.value) === 0n) continue;
    add({
      category: 'NATIVE',
      from: tx.from.toLowerCase(),
      to: tx.to.toLowerCase(),
      amount: BigInt(tx.value),
      contract: null,
      tokenId: null,
      txHash: tx.hash,
      txIndex: tx.transactionIndex ? quantity(tx.transactionIndex) : index,
      logIndex: null,
    });
  }
  for (const log of logs) for (const transfer of logTransfers(log)) add(transfer);
  for (const list of matched.values()) {
    list.sort((a, b) => a.txIndex - b.txIndex || (a.logIndex ?? -1) - (b.logIndex ?? -1));
  }
  return matched;
}
