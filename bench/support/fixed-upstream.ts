// A minimal JSON-RPC node that answers every call with a fixed result, as cheaply as Node allows:
// the upstream whose own cost is the smallest, so that what a proxy adds is what is measured.
// Run as a process of its own: `node --import tsx bench/support/fixed-upstream.ts PORT`.
import http from 'node:http';

export const FIXED_RESULT = '0x1234567';

/** The answer to a single call whose id reads `id` in JSON (a number, a quoted string, null). */
export const fixedAnswer = (id: number | string) => `{"jsonrpc":"2.0","id":${id},"result":"${FIXED_RESULT}"}`;

/**
 * Each call's id as written. A scan, not a parse: the bodies sent here name no other "id", and a
 * batch of 50 is scanned in a fraction of the time JSON.parse takes, so the reference stays cheap.
 */
const ID = /"id":\s*(-?\d+|"[^"\\]*"|null)/g;

/** Answers of the id lists seen, bounded: callers send few (1; 1..n; the gateway's own 0..n-1). */
const KEPT_ANSWERS = 1000;

if (import.meta.url === `file://${process.argv[1]}`) {
  const port = Number(process.argv[2]);
  const answers = new Map<string, Buffer>();
  const answerTo = (body: string) => {
    const batch = body.trimStart().startsWith('[');
    const ids: string[] = [];
    for (let found = ID.exec(body); found; found = ID.exec(body)) ids.push(found[1] as string);
    const key = `${batch ? '[' : ''}${ids.join(',')}`;
    let answer = answers.get(key);
    if (!answer) {
      const calls = ids.map(fixedAnswer);
      answer = Buffer.from(batch ? `[${calls.join(',')}]` : (calls[0] ?? fixedAnswer('null')));
      if (answers.size === KEPT_ANSWERS) answers.clear();
      answers.set(key, answer);
    }
    return answer;
  };
  const server = http.createServer({ keepAliveTimeout: 600_000 }, (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const answer = answerTo(Buffer.concat(chunks).toString());
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': answer.length });
      response.end(answer);
    });
  });
  server.listen(port, '127.0.0.1', () => process.stdout.write('ready\n'));
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}
