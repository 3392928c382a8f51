import { type Hex, keccak256 } from 'viem';

/** What nodes answer a transaction they already hold (geth, Erigon, Nethermind, Besu, Anvil). */
const ALREADY_KNOWN = /already known|known transaction|alreadyknown|already imported|already exists/i;
/** What they answer once its nonce is used: by this very transaction in a block, or by another. */
const NONCE_USED = /nonce too low|nonce is too low|oldnonce/i;

const RAW = /^0x[0-9a-f]+$/i;

/**
 * eth_sendRawTransaction made idempotent: a retry of a signed transaction the node already holds,
 * or has already put in a block, answers its hash as the first send did, instead of the node's
 * "already known" or "nonce too low". A "nonce too low" from another transaction with the same
 * nonce stays the node's error. `lookup` reads a transaction by hash from the network.
 */
export async function retriedTransactionHash(
  raw: unknown,
  errorMessage: unknown,
  lookup: (hash: Hex) => Promise<unknown>,
): Promise<Hex | null> {
  if (typeof raw !== 'string' || !RAW.test(raw) || typeof errorMessage !== 'string') return null;
  const known = ALREADY_KNOWN.test(errorMessage);
  if (!known && !NONCE_USED.test(errorMessage)) return null;
  const hash = keccak256(raw as Hex);
  if (known) return hash;
  return (await lookup(hash).catch(() => null)) ? hash : null;
}
