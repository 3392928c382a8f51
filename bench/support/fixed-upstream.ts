// A minimal JSON-RPC node that answers every call with a fixed result, as cheaply as Node allows:
// the upstream whose own cost is the smallest, so that what a proxy adds is what is measured.
// Run as a process of its own: `node --import tsx bench/support/fixed-upstream.ts PORT`.
import http from 'node:http';

export const FIXED_RESULT = '0x1234567';

/** The answer to a single call of id `id`. */
export const fixedAnswer = (id: number) => `{"jsonrpc":"2.0","id":${id},"result":"${FIXED_RESULT}"}`;

if (import.meta.url === `file://${process.argv[1]}`) {
  const port = Number(process.argv[2]);
  // Bodies are known: a single call of id 1 or a batch of ids 1..n. Answers are built once per size.
  const batches = new Map<number, Buffer>();
  const single = Buffer.from(fixedAnswer(1));
  const batchAnswer = (n: number) => {
    let answer = batches.get(n);
    if (!answer) {
      answer = Buffer.from(`[${Array.from({ length: n }, (_, i) => fixedAnswer(i + 1)).join(',')}]`);
      batches.set(n, answer);
    }
    return answer;
  };
  const server = http.createServer({ keepAliveTimeout: 600_000 }, (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      // A batch's size is its number of calls: one "method" per call.
      const answer = body.startsWith('[') ? batchAnswer(body.split('"method"').length - 1) : single;
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': answer.length });
      response.end(answer);
    });
  });
  server.listen(port, '127.0.0.1', () => process.stdout.write('ready\n'));
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}
