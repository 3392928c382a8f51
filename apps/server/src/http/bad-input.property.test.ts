import { ERROR_STATUS, isErrorCode } from '@ebs/contract';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../testing/client.ts';
import { testDatabases } from '../testing/databases.ts';
import { changedTables, fingerprint } from '../testing/db-fingerprint.ts';
import { type BadRequest, badRequests, type Holder } from '../testing/invalid-request.ts';
import { badRpcCalls } from '../testing/invalid-rpc.ts';
import { accountWithKey, type KeyHolder } from '../testing/keys.ts';
import { type RawAnswer, sendRaw } from '../testing/raw-request.ts';
import { reportFigures } from '../testing/report.ts';
import { serverFor } from '../testing/server.ts';

/**
 * Invalid bodies, queries, headers and path values, generated from each route's own schemas for
 * every route in the route table: the answer is always a 4xx in the error wrapper (JSON-RPC
 * errors on the gateway) with a message a person can read, and no row of any table changes.
 * No table is left out of the comparison: none changes on a refused request (sessions keep no
 * last-used time, rate-limit counters live in memory or Redis, not in a table).
 *
 * FUZZ_RUNS (inputs per route) and FUZZ_SEED make a longer or another run; a failure prints the
 * seed and the shrunk request to replay it.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 20);
const SEED = Number(process.env.FUZZ_SEED ?? 20_251_121);

/** Words that betray an internal error behind a message: a crash, a stack, SQL, a framework code. */
const INTERNAL =
  /cannot read|undefined|is not a function|TypeError|ReferenceError|RangeError|SyntaxError|\bat .+:\d+|node_modules|\bselect\b|\binsert\b|\bdelete from\b|relation "|violates|syntax error|invalid input syntax|\bFST_|\[object Object\]|NaN/i;

function wrapperProblem(answer: RawAnswer): string | undefined {
  const body = answer.json as { statusCode?: unknown; message?: unknown; error?: unknown } | undefined;
  if (typeof body !== 'object' || body === null) return `not JSON: ${answer.text.slice(0, 200)}`;
  if (body.statusCode !== answer.status) return `statusCode ${String(body.statusCode)} on HTTP ${answer.status}`;
  if (!isErrorCode(body.error) || ERROR_STATUS[body.error] !== answer.status) {
    return `error ${String(body.error)} on HTTP ${answer.status}: not a code of the contract's list with that status`;
  }
  return messageProblem(body.message);
}

function rpcProblem(answer: RawAnswer): string | undefined {
  const body = answer.json as { jsonrpc?: unknown; error?: { code?: unknown; message?: unknown } } | undefined;
  if (typeof body !== 'object' || body === null) return `not JSON: ${answer.text.slice(0, 200)}`;
  if (body.jsonrpc !== '2.0' || typeof body.error?.code !== 'number') return 'not a JSON-RPC error';
  return messageProblem(body.error.message);
}

function messageProblem(message: unknown): string | undefined {
  if (typeof message !== 'string' || message.trim() === '') return 'no message';
  if (message.length > 300) return `a message of ${message.length} characters`;
  if (INTERNAL.test(message)) return `an internal message: ${message}`;
  return undefined;
}

const describeRequest = (sent: BadRequest) => {
  const headers = Object.entries(sent.headers).map(([name, value]) => `${name}: ${String(value).slice(0, 40)}`);
  return [
    sent.why,
    `${sent.method} ${sent.path.slice(0, 200)}`,
    `headers ${headers.join(' | ')}`,
    `body ${String(sent.body ?? '').slice(0, 200)}`,
  ].join('\n');
};

describe.each(testDatabases)('bad input on $name', (database) => {
  const server = serverFor(database);
  const runs = database.name === 'pglite' ? RUNS : Math.max(5, Math.ceil(RUNS / 3));
  let owner: KeyHolder;
  let holder: Holder;

  beforeAll(async () => {
    owner = await accountWithKey(server().url, server().db);
    const leaver = new Client(server().url);
    await leaver.signUp();
    const signedOutToken = leaver.idToken;
    await leaver.post('/auth/sign-out');
    holder = { idToken: owner.client.idToken, signedOutToken, accountId: owner.accountId };
  });

  it('refuses every invalid input to every route with a clear 4xx and changes nothing', async () => {
    const { url, db, deps } = server();
    const routes = server().routes.filter((r) => r.method !== 'HEAD' && !r.url.startsWith('/api/docs'));
    const failures: string[] = [];
    const figures = { database: database.name, routes: 0, inputs: 0, serverErrors: 0, dbChanges: 0 };
    for (const route of routes) {
      const isRpc = route.url.startsWith('/api/v1.0/rpc/') && route.method === 'POST';
      const inputs = isRpc
        ? badRpcCalls(owner, deps.config.RPC_MAX_BATCH, deps.config.RPC_MAX_BODY_BYTES)
        : badRequests(route, holder);
      if (!inputs) continue;
      figures.routes++;
      const before = await fingerprint(db);
      const result = await fc.check(
        fc.asyncProperty(inputs, async (sent) => {
          figures.inputs++;
          const answer = await sendRaw(url, sent);
          if (answer.status >= 500) figures.serverErrors++;
          const problem =
            answer.status < 400 || answer.status >= 500
              ? `HTTP ${answer.status}: ${answer.text.slice(0, 300)}`
              : isRpc
                ? rpcProblem(answer)
                : wrapperProblem(answer);
          const changed = changedTables(before, await fingerprint(db));
          if (changed.length > 0) figures.dbChanges++;
          if (problem || changed.length > 0) {
            throw new Error(`${problem ?? 'answer fine'}; tables changed: ${changed.join(', ') || 'none'}`);
          }
        }),
        { numRuns: runs, seed: SEED },
      );
      if (result.failed) {
        const sent = result.counterexample?.[0] as BadRequest | undefined;
        failures.push(
          `${route.method} ${route.url}: ${String(result.errorInstance).slice(0, 400)}\n${sent ? describeRequest(sent) : ''}\n` +
            `replay with FUZZ_SEED=${result.seed} (path ${result.counterexamplePath})`,
        );
      }
    }
    reportFigures('bad input', figures);
    expect(failures.length, failures.join('\n\n')).toBe(0);
    expect(figures.routes).toBeGreaterThan(60);
  }, 300_000);
});
