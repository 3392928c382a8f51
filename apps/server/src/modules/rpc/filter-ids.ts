import { createHmac, timingSafeEqual } from 'node:crypto';

/** Hex digits of the tag that ties a filter id to its account and network. */
const TAG_HEX = 32;
const NODE_ID = /^0x[0-9a-f]{1,128}$/i;
const GIVEN_ID = new RegExp(`^0x[0-9a-f]{${TAG_HEX + 1},${TAG_HEX + 128}}$`, 'i');

/**
 * Node filters (eth_newFilter and its kin) live on a node that every customer shares, under ids any
 * caller could name. The gateway hands out its own id instead: the node's, behind a tag that is an
 * HMAC of the account, the network and the node's id under a server secret (the same in every
 * process, so no state is shared and any process can check it). A call that names a filter is sent
 * on with the node's id only when the tag is the caller's; otherwise it is answered "filter not
 * found" and the node never sees it.
 */
export class FilterIds {
  constructor(private readonly key: Buffer) {}

  private tag(accountId: string, network: string, nodeId: string): string {
    return createHmac('sha256', this.key)
      .update(`${accountId}\n${network}\n${nodeId.toLowerCase()}`)
      .digest('hex')
      .slice(0, TAG_HEX);
  }

  /** The id the caller is given for a filter the node made, or the node's answer as it is when it is not an id. */
  issue(accountId: string, network: string, nodeId: unknown): unknown {
    if (typeof nodeId !== 'string' || !NODE_ID.test(nodeId)) return nodeId;
    return `0x${this.tag(accountId, network, nodeId)}${nodeId.slice(2)}`;
  }

  /** The node's id behind an id the gateway gave this account on this network; null for any other. */
  nodeId(accountId: string, network: string, given: unknown): string | null {
    if (typeof given !== 'string' || !GIVEN_ID.test(given)) return null;
    const nodeId = `0x${given.slice(2 + TAG_HEX)}`;
    const expected = Buffer.from(this.tag(accountId, network, nodeId));
    const shown = Buffer.from(given.slice(2, 2 + TAG_HEX).toLowerCase());
    return timingSafeEqual(expected, shown) ? nodeId : null;
  }
}
