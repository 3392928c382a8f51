// A minimal JSON-RPC node that answers every call with a fixed result, as cheaply as Node allows:
// the upstream whose own cost is the smallest, so that what a proxy adds is what is measured.
// Run as a process of its own:
// `node --import tsx bench/support/fixed-upstream.ts PORT [CHAIN_ID [HEAD [DELAY_MS]]] [marked]`.
// It answers the gateway's read of a node's chain id and head (NODE_HEAD_READ, every few seconds)
// with CHAIN_ID (default 1) and HEAD (default FIXED_RESULT's number), so that the router counts it
// up; every other call gets the fixed result, or with `marked` the node's head, so that an answer
// tells which node (head) gave it (the fleet suite). With DELAY_MS every answer waits that long: a
// slower node. GET /count answers the calls it was sent, the head reads left out.
import http from 'node:http';
import { NODE_HEAD_READ } from '../../apps/server/src/modules/rpc/fleet-heads.ts';

export const FIXED_RESULT = '0x1234567';
/** The head a node reports unless told otherwise: the fixed result's number. */
export const FIXED_HEAD = Number(FIXED_RESULT);

/** The answer to a single call whose id reads `id` in JSON (a number, a quoted string, null). */
export const fixedAnswer = (id: number | string, result = FIXED_RESULT) =>
  `{"jsonrpc":"2.0","id":${id},"result":"${result}"}`;

/** The answer to NODE_HEAD_READ: the chain id (id 0) and the head (id 1). */
export const headReadAnswer = (chainId: number, head: number) =>
  `[${fixedAnswer(0, `0x${chainId.toString(16)}`)},${fixedAnswer(1, `0x${head.toString(16)}`)}]`;

/**
 * Each call's id as written. A scan, not a parse: the bodies sent here name no other "id", and a
 * batch of 50 is scanned in a fraction of the time JSON.parse takes, so the reference stays cheap.
 */
const ID = /"id":\s*(-?\d+|"[^"\\]*"|null)/g;

/** Answers of the id lists seen, bounded: callers send few (1; 1..n; the gateway's own 0..n-1). */
const KEPT_ANSWERS = 1000;

/** A whole number from the command line, or its default. */
function wholeArgument(raw: string | undefined, fallback: number, name: string): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`${name} must be a whole number (got "${raw}")`);
  return value;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const marked = args.includes('marked');
  const [portText, chainIdText, headText, delayText] = args.filter((arg) => arg !== 'marked');
  const port = wholeArgument(portText, 0, 'PORT');
  const chainId = wholeArgument(chainIdText, 1, 'CHAIN_ID');
  const head = wholeArgument(headText, FIXED_HEAD, 'HEAD');
  const delayMs = wholeArgument(delayText, 0, 'DELAY_MS');
  const result = marked ? `0x${head.toString(16)}` : FIXED_RESULT;
  const headRead = Buffer.from(headReadAnswer(chainId, head));
  const answers = new Map<string, Buffer>();
  let calls = 0;
  const answerTo = (body: string) => {
    if (body.length === NODE_HEAD_READ.length && body === NODE_HEAD_READ) return headRead;
    const batch = body.trimStart().startsWith('[');
    const ids: string[] = [];
    for (let found = ID.exec(body); found; found = ID.exec(body)) ids.push(found[1] as string);
    calls += Math.max(1, ids.length);
    const key = `${batch ? '[' : ''}${ids.join(',')}`;
    let answer = answers.get(key);
    if (!answer) {
      const all = ids.map((id) => fixedAnswer(id, result));
      answer = Buffer.from(batch ? `[${all.join(',')}]` : (all[0] ?? fixedAnswer('null', result)));
      if (answers.size === KEPT_ANSWERS) answers.clear();
      answers.set(key, answer);
    }
    return answer;
  };
  const send = (response: http.ServerResponse, answer: Buffer) => {
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': answer.length });
    response.end(answer);
  };
  const server = http.createServer({ keepAliveTimeout: 600_000 }, (request, response) => {
    if (request.method === 'GET' && request.url === '/count') {
      request.resume();
      response.end(String(calls));
      return;
    }
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const answer = answerTo(Buffer.concat(chunks).toString());
      if (delayMs > 0) setTimeout(send, delayMs, response, answer);
      else send(response, answer);
    });
  });
  server.listen(port, '127.0.0.1', () => process.stdout.write('ready\n'));
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}
