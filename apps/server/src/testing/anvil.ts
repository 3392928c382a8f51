import { freePort, spawnAnvil, stopAnvil } from '../modules/rpc/anvil-nodes.ts';

export { freePort };

/** Anvil's first prefunded development account (its well-known test key; never holds real value). */
export const DEV_PRIVATE_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80' as const;

/**
 * A real Anvil node started by a test, and stopped by it; with a state file and a port, a test can
 * stop it and start it again where it was.
 */
export async function startAnvil(
  chainId: number,
  options: { statePath?: string; port?: number } = {},
): Promise<{ url: string; stop(): Promise<void> }> {
  const node = await spawnAnvil(chainId, options.statePath, options.port);
  return { url: node.url, stop: () => stopAnvil(node.child) };
}
