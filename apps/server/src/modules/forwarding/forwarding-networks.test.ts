import { describe, expect, it } from 'vitest';
import type { Db } from '../../db/database.ts';
import { type ChainRpc, ForwardingChains } from './chain.ts';
import { ForwardingService } from './forwarding.service.ts';
import { WalletKeys } from './wallet-keys.ts';

/** A deployment whose RPC_UPSTREAMS name only these network paths (production: no local nodes). */
const upstreamsFor = (...paths: string[]): ChainRpc => ({
  call: async () => {
    throw new Error('no call expected');
  },
  usesLocalNode: () => false,
  isAvailable: (path) => paths.includes(path),
});

const service = (rpc: ChainRpc) =>
  new ForwardingService({} as Db, new WalletKeys(Buffer.alloc(32, 7)), new ForwardingChains(rpc), Buffer.alloc(32), {
    WEBHOOK_ALLOW_PRIVATE_TARGETS: false,
    WEBHOOK_TIMEOUT_MS: 1000,
  });

describe('supported networks and tokens come from the configured upstreams', () => {
  it('lists only the EVM networks that have an upstream, each with its native token and ERC20', () => {
    expect(service(upstreamsFor('ethereum/mainnet', 'bsc/testnet')).supported()).toEqual({
      ETHEREUM_MAINNET: ['ETH', 'ERC20'],
      BSC_TESTNET: ['BNB', 'ERC20'],
    });
  });

  it('refuses a wallet on a network without an upstream before touching the database', async () => {
    await expect(
      service(upstreamsFor('ethereum/mainnet')).createGasWallet('00000000-0000-4000-8000-000000000001', {
        network: 'POLYGON_MAINNET',
        name: 'Gas',
      }),
    ).rejects.toMatchObject({
      statusCode: 400,
      message: 'POLYGON MAINNET is not supported for token forwarding on this service.',
    });
  });

  it('never lists the Bitcoin networks: there is no Bitcoin backend', () => {
    const all = upstreamsFor(
      ...[
        'ethereum/mainnet',
        'ethereum/sepolia',
        'bsc/mainnet',
        'bsc/testnet',
        'polygon/mainnet',
        'polygon/amoy',
        'aurora/mainnet',
        'aurora/testnet',
      ],
    );
    const networks = Object.keys(service(all).supported());
    expect(networks).toHaveLength(8);
    expect(networks.some((n) => n.startsWith('BITCOIN'))).toBe(false);
  });
});
