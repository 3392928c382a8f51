import { type Static, Type } from '@sinclair/typebox';

/** spec B §3: the network identifiers of token forwarding. */
export const NETWORKS = [
  'ETHEREUM_SEPOLIA',
  'ETHEREUM_MAINNET',
  'BITCOIN_MAINNET',
  'BITCOIN_TESTNET',
  'BSC_MAINNET',
  'BSC_TESTNET',
  'POLYGON_MAINNET',
  'POLYGON_AMOY',
  'AURORA_MAINNET',
  'AURORA_TESTNET',
] as const;

// The pure mark lets the web build drop the schema (and TypeBox) where only the list is used.
export const Network = Type.Union(/* @__PURE__ */ NETWORKS.map((network) => Type.Literal(network)));
export type Network = Static<typeof Network>;
