import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface NodeCall {
  method: string;
  params: unknown[];
}

/** What the script answers a call: its result, or `{ error }` for a JSON-RPC error. */
export type Script = (call: NodeCall) => unknown | Promise<unknown>;

/**
 * A JSON-RPC node whose answers a test writes (a chain head it moves, a reorg, a slow answer), for
 * gateway tests that need the node to behave in a way a real one only does by chance. It keeps
 * every call it received, a batch's one by one.
 */
export async function startScriptedNode(
  script: Script,
): Promise<{ url: string; calls: NodeCall[]; close(): Promise<void> }> {
  const calls: NodeCall[] = [];
  const answerOne = async (request: { id?: unknown; method?: unknown; params?: unknown }) => {
    const call = { method: String(request.method), params: Array.isArray(request.params) ? request.params : [] };
    calls.push(call);
    const answer = await script(call);
    return answer && typeof answer === 'object' && 'error' in answer
      ? { jsonrpc: '2.0', id: request.id ?? null, error: (answer as { error: unknown }).error }
      : { jsonrpc: '2.0', id: request.id ?? null, result: answer ?? null };
  };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      const body = JSON.parse(Buffer.concat(chunks).toString());
      const answer = JSON.stringify(
        Array.isArray(body) ? await Promise.all(body.map(answerOne)) : await answerOne(body),
      );
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(answer) });
      response.end(answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}
