import http from 'node:http';
import type { AddressInfo } from 'node:net';

export const FIXED_RESULT = '0x1234567';

/**
 * A JSON-RPC node that answers every call (a batch with an array) with a fixed result and its own id: an upstream
 * for gateway tests that are about the gateway, with no chain behind it. It keeps the bodies it
 * received, as sent, so that a test can see what reached the node.
 */
export async function startFixedUpstream(): Promise<{ url: string; received: string[]; close(): Promise<void> }> {
  const received: string[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      received.push(body);
      let parsed: unknown = null;
      try {
        parsed = JSON.parse(body);
      } catch {
        // answered with a null id
      }
      const one = (call: unknown) => ({
        jsonrpc: '2.0',
        id: (call as { id?: unknown } | null)?.id ?? null,
        result: FIXED_RESULT,
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
