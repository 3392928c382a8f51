import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { findRpcNetwork } from '@ebs/contract';
import { NODE_HEAD_READ } from '../modules/rpc/fleet-heads.ts';

export const FIXED_RESULT = '0x1234567';

/**
 * A JSON-RPC node that answers every call (a batch with an array) with a fixed result and its own id: an upstream
 * for gateway tests that are about the gateway, with no chain behind it. It keeps the bodies it
 * received, as sent, so that a test can see what reached the node; the gateway's own reads of its
 * chain id and head (every few seconds) are answered, with the network's chain id, and not kept.
 */
export async function startFixedUpstream(
  network = 'ethereum/mainnet',
): Promise<{ url: string; received: string[]; close(): Promise<void> }> {
  const chainId = findRpcNetwork(network)?.chainId ?? 1;
  const received: string[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      let parsed: unknown = null;
      try {
        parsed = JSON.parse(body);
      } catch {
        // answered with a null id
      }
      const headRead = body === NODE_HEAD_READ;
      if (!headRead) received.push(body);
      const one = (call: unknown) => ({
        jsonrpc: '2.0',
        id: (call as { id?: unknown } | null)?.id ?? null,
        result:
          headRead && (call as { method?: unknown } | null)?.method === 'eth_chainId'
            ? `0x${chainId.toString(16)}`
            : FIXED_RESULT,
      });
      const answer = JSON.stringify(Array.isArray(parsed) ? parsed.map(one) : one(parsed));
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(answer) });
      response.end(answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}
