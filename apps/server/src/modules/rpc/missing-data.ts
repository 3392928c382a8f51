import type { NodeNeed } from './node-need.ts';

/**
 * JSON-RPC errors that mean the node lacks the data, not that the call is wrong: the node's own
 * message, from its start (a contract's revert reason that says so is the contract's).
 */
const MISSING_DATA =
  /^(header not found|unknown block|missing trie node|block not found|historical state .*(not available|unavailable))/i;
const NULL_RESULT = /"result"\s*:\s*null/;

/**
 * Whether a node's answer, read whole, says the node lacks the data (so that another node is asked):
 * an error naming it, or a null block at a number the network has (`best`, its best head).
 */
export function lacksData(body: Buffer, need: NodeNeed, best: bigint | undefined): boolean {
  if (body.includes('"error"')) {
    try {
      const parsed = JSON.parse(body.toString('utf8')) as unknown;
      for (const item of [parsed].flat()) {
        const message = (item as { error?: { message?: unknown } } | null)?.error?.message;
        if (typeof message === 'string' && MISSING_DATA.test(message)) return true;
      }
    } catch {
      return false;
    }
  }
  return (
    need.nullWhenMissing &&
    need.newest !== null &&
    best !== undefined &&
    need.newest <= best &&
    NULL_RESULT.test(body.toString('latin1'))
  );
}
