import { HDKey, hdKeyToAccount } from 'viem/accounts';

/**
 * Forwarding and gas fee funding wallets hold no key of their own: each key is derived from the
 * master seed (BIP-32, m/44'/60'/0'/0/index) when a transaction is signed, and kept nowhere.
 * The database stores only the index and the address.
 */
export class WalletKeys {
  private readonly root: HDKey;

  constructor(seed: Buffer) {
    if (seed.length < 32) throw new Error('The wallet master seed must be at least 32 bytes');
    this.root = HDKey.fromMasterSeed(seed);
  }

  /** The signing account of a wallet index; use it and let it go. */
  account(index: number) {
    return hdKeyToAccount(this.root, { addressIndex: index });
  }

  address(index: number): string {
    return this.account(index).address;
  }
}
