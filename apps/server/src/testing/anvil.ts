import { freePort, spawnAnvil, stopAnvil } from '../modules/rpc/anvil-nodes.ts';

export { freePort };

/** Anvil's first prefunded development account (its well-known test key; never holds real value). */
export const DEV_PRIVATE_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80' as const;

/** A real Anvil node started by a test, and stopped by it. */
export async function startAnvil(chainId: number): Promise<{ url: string; stop(): Promise<void> }> {
  const node = await spawnAnvil(chainId);
  return { url: node.url, stop: () => stopAnvil(node.child) };
}
