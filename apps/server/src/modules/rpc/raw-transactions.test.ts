import { keccak256 } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { retriedTransactionHash } from './raw-transactions.ts';

const raw = await privateKeyToAccount(generatePrivateKey()).signTransaction({
  chainId: 1,
  to: `0x${'35'.repeat(20)}`,
  value: 1n,
  nonce: 7,
  gas: 21_000n,
  maxFeePerGas: 2n,
  maxPriorityFeePerGas: 1n,
});

describe('a retried signed transaction', () => {
  const mined = async () => ({ hash: keccak256(raw) });
  const unknown = async () => null;

  it('is answered with its hash when the node already holds it, whatever the node calls it', async () => {
    for (const message of [
      'already known',
      'Known transaction: 0xabc',
      'AlreadyKnown',
      'transaction already imported',
    ]) {
      expect(await retriedTransactionHash(raw, message, unknown)).toBe(keccak256(raw));
    }
  });

  it('is answered with its hash on "nonce too low" only when this very transaction is on chain', async () => {
    expect(await retriedTransactionHash(raw, 'nonce too low: next nonce 8, tx nonce 7', mined)).toBe(keccak256(raw));
    expect(await retriedTransactionHash(raw, 'nonce too low', unknown)).toBeNull();
    // A lookup that fails proves nothing: the node's error stands.
    expect(await retriedTransactionHash(raw, 'nonce too low', () => Promise.reject(new Error('down')))).toBeNull();
  });

  it('leaves every other error, and what is not a signed transaction, to the node', async () => {
    expect(await retriedTransactionHash(raw, 'insufficient funds for gas * price + value', mined)).toBeNull();
    expect(await retriedTransactionHash('not hex', 'already known', mined)).toBeNull();
    expect(await retriedTransactionHash(raw, undefined, mined)).toBeNull();
  });
});
