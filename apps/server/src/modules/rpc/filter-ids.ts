import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FilterRange } from './logs-guard.ts';

/** Hex digits of the tag that ties a filter id to its account and network. */
const TAG_HEX = 32;
/** Hex digits of each end of the filter's blocks (`to` all f: it follows the head). */
const BLOCK_HEX = 16;
const FOLLOWS_HEAD = 'f'.repeat(BLOCK_HEX);
/** The blocks of a filter that is not a log filter (a block or pending-transaction filter). */
const NO_RANGE = 'f'.repeat(2 * BLOCK_HEX);
/** Hex digits of the key of the node that holds the filter (upstream-node.ts, nodeKeyOf). */
const NODE_KEY_HEX = 8;
const PREFIX_HEX = TAG_HEX + 2 * BLOCK_HEX + NODE_KEY_HEX;
const NODE_KEY = /^[0-9a-f]{8}$/;
const NODE_ID = /^0x[0-9a-f]{1,128}$/i;
const GIVEN_ID = new RegExp(`^0x[0-9a-f]{${PREFIX_HEX + 1},${PREFIX_HEX + 128}}$`, 'i');

/** The node's filter behind an id the gateway gave, the node that holds it, and the blocks a log filter covers. */
export interface OwnedFilter {
  nodeId: string;
  node: string;
  range: FilterRange | null;
}

const hexOf = (block: bigint) => block.toString(16).padStart(BLOCK_HEX, '0').slice(-BLOCK_HEX);

/**
 * Node filters (eth_newFilter and its kin) live on a node that every customer shares, under ids any
 * caller could name. The gateway hands out its own id instead: the node's, behind the blocks a log
 * filter covers, the key of the node that made it (its follow-ups go there) and a tag that is an
 * HMAC of the account, the network, those blocks, that node and the node's id under a server secret (the same in every process, so no state is shared and any process can
 * check it). A call that names a filter is sent on with the node's id only when the tag is the
 * caller's; otherwise it is answered "filter not found" and the node never sees it.
 */
export class FilterIds {
  constructor(private readonly key: Buffer) {}

  private tag(accountId: string, network: string, blocks: string, node: string, nodeId: string): string {
    return createHmac('sha256', this.key)
      .update(`${accountId}\n${network}\n${blocks}\n${node}\n${nodeId.toLowerCase()}`)
      .digest('hex')
      .slice(0, TAG_HEX);
  }

  /** The id the caller is given for a filter the node made, or the node's answer as it is when it is not an id. */
  issue(accountId: string, network: string, node: string, nodeId: unknown, range: FilterRange | null = null): unknown {
    if (typeof nodeId !== 'string' || !NODE_ID.test(nodeId) || !NODE_KEY.test(node)) return nodeId;
    const blocks = range ? `${hexOf(range.from)}${range.to === null ? FOLLOWS_HEAD : hexOf(range.to)}` : NO_RANGE;
    return `0x${this.tag(accountId, network, blocks, node, nodeId)}${blocks}${node}${nodeId.slice(2)}`;
  }

  /** The node's filter behind an id the gateway gave this account on this network; null for any other. */
  read(accountId: string, network: string, given: unknown): OwnedFilter | null {
    if (typeof given !== 'string' || !GIVEN_ID.test(given)) return null;
    const blocksEnd = 2 + TAG_HEX + 2 * BLOCK_HEX;
    const blocks = given.slice(2 + TAG_HEX, blocksEnd).toLowerCase();
    const node = given.slice(blocksEnd, 2 + PREFIX_HEX).toLowerCase();
    const nodeId = `0x${given.slice(2 + PREFIX_HEX)}`;
    const expected = Buffer.from(this.tag(accountId, network, blocks, node, nodeId));
    const shown = Buffer.from(given.slice(2, 2 + TAG_HEX).toLowerCase());
    if (!timingSafeEqual(expected, shown)) return null;
    const from = BigInt(`0x${blocks.slice(0, BLOCK_HEX)}`);
    const to = blocks.slice(BLOCK_HEX);
    const range = blocks === NO_RANGE ? null : { from, to: to === FOLLOWS_HEAD ? null : BigInt(`0x${to}`) };
    return { nodeId, node, range };
  }
}
