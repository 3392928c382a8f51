import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { NODE_HEAD_READ } from '../modules/rpc/fleet-heads.ts';

export interface NodeCall {
  method: string;
  params: unknown[];
}

/** What the script answers a call: its result, `{ error }` for a JSON-RPC error, or an HttpReply. */
export type Script = (call: NodeCall) => unknown | Promise<unknown>;

/** A script's answer that makes the node answer the whole request with this HTTP status (a 429, a 503). */
export class HttpReply {
  constructor(
    readonly status: number,
    readonly headers: Record<string, string> = {},
  ) {}
}

/**
 * A JSON-RPC node whose answers a test writes (a chain head it moves, a reorg, a slow answer), for
 * gateway tests that need the node to behave in a way a real one only does by chance. It keeps
 * every call it received, a batch's one by one, but the gateway's own reads of its chain id and
 * head (every few seconds), which it answers all the same.
 */
export async function startScriptedNode(
  script: Script,
): Promise<{ url: string; calls: NodeCall[]; close(): Promise<void> }> {
  const calls: NodeCall[] = [];
  const answerOne = async (request: { id?: unknown; method?: unknown; params?: unknown }, kept = true) => {
    const call = { method: String(request.method), params: Array.isArray(request.params) ? request.params : [] };
    if (kept) calls.push(call);
    const answer = await script(call);
    return answer && typeof answer === 'object' && 'error' in answer
      ? { jsonrpc: '2.0', id: request.id ?? null, error: (answer as { error: unknown }).error }
      : { jsonrpc: '2.0', id: request.id ?? null, result: answer ?? null };
  };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      const text = Buffer.concat(chunks).toString();
      const body = JSON.parse(text);
      const kept = text !== NODE_HEAD_READ;
      let reply: HttpReply | undefined;
      const answerOrReply = async (request: { id?: unknown; method?: unknown; params?: unknown }) => {
        const answer = await answerOne(request, kept);
        if ('result' in answer && answer.result instanceof HttpReply) reply = answer.result;
        return answer;
      };
      const answers = Array.isArray(body) ? await Promise.all(body.map(answerOrReply)) : await answerOrReply(body);
      if (response.destroyed) return;
      if (reply) {
        response.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
        response.end('{}');
        return;
      }
      const answer = JSON.stringify(answers);
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
