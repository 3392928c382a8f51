import { randomInt } from 'node:crypto';
import { defaultPriceOf, IdentityErrors, RpcErrorCodes, RpcMessages, type TransactionType } from '@ebs/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../app/commands.ts';
import { type Db, openDatabase } from '../db/database.ts';
import { insertTransaction } from '../modules/ledger/ledger.test-kit.ts';
import { addUsage } from '../modules/usage/usage.test-kit.ts';
import { type Answer, Client } from '../testing/client.ts';
import { startFixedUpstream } from '../testing/fixed-upstream.ts';
import { failedJobRuns, jobEffects, jobRunsOf, type Key, OwnerAccounts, operatorJobs } from '../testing/job-work.ts';
import { rpcCall } from '../testing/keys.ts';
import { accepted, type GatewayAnswer, propagation, refusedWith } from '../testing/propagation.ts';
import { reportFigures } from '../testing/report.ts';
import { type Cluster, startCluster } from '../testing/server-cluster.ts';
import type { ServerProcess } from '../testing/server-process.ts';

const ADMIN_URL = process.env.TEST_DATABASE_URL;
const REDIS_URL = process.env.TEST_REDIS_URL;
/** The gateway's per-key limit on both processes. */
const RATE = 10;
const NETWORK = 'ethereum/mainnet';
const RESOURCE = 'RPC_API_ETHEREUM_MAINNET';
const CALL = { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber' };
/** The promised bound for a key's or an account's change to reach every process. */
const PROPAGATION_BOUND_MS = 1000;
const SCHEDULED_JOBS = ['autopay', 'reconcile', 'billing'];

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** What `usage` requests cost, as the ledger rounds it (6 decimals), as a withdrawal. */
const usageCharge = (usage: number) => -Number((usage * Number(defaultPriceOf(RESOURCE))).toFixed(6));
/** An address of the benchmarking range: this file's per-address limits are its own on a shared Redis. */
const someAddress = () => `198.18.${randomInt(256)}.${randomInt(1, 255)}`;

describe.skipIf(!ADMIN_URL || !REDIS_URL)('two server processes on one PostgreSQL and Redis', () => {
  let cluster: Cluster;
  let upstream: Awaited<ReturnType<typeof startFixedUpstream>>;
  let db: Db;
  let owner: Client;
  let accounts: OwnerAccounts;
  let directCalls = 0;
  let operatorRuns = 0;
  const figures = {
    duplicateJobEffects: 0,
    revocationMaxMs: 0,
    suspensionMaxMs: 0,
    rateLimitAllowed: 0,
    rateLimitRefused: 0,
    ruleChangeMaxMs: 0,
  };

  beforeAll(async () => {
    upstream = await startFixedUpstream(NETWORK);
    cluster = await startCluster({
      processes: 2,
      adminUrl: String(ADMIN_URL),
      forwardedFor: someAddress(),
      env: {
        REDIS_URL: String(REDIS_URL),
        JOBS_INTERVAL_SECONDS: '1',
        RPC_RATE_LIMIT_PER_SECOND: String(RATE),
        RPC_UPSTREAMS: JSON.stringify({ [NETWORK]: [upstream.url] }),
        USAGE_FLUSH_SECONDS: '0.5',
        FORWARDING_ENGINE: 'off',
        // The scheduler reports each finished run at debug level.
        LOG_LEVEL: 'debug',
      },
    });
    db = await openDatabase({ url: cluster.env.DATABASE_URL });
    owner = new Client(cluster.proxy.url, cluster.processes[0]?.url);
    await owner.signUp();
    accounts = new OwnerAccounts(owner, db, NETWORK);
  }, 120_000);

  afterAll(async () => {
    if (cluster) {
      const jobRuns = cluster.processes.reduce(
        (n, p) => n + SCHEDULED_JOBS.reduce((m, j) => m + jobRunsOf(p, j), 0),
        0,
      );
      reportFigures('several processes', {
        processes: cluster.processes.length,
        requests: cluster.proxy.served.length + directCalls,
        jobRuns: jobRuns + operatorRuns,
        ...figures,
      });
    }
    await db?.destroy();
    await cluster?.stop();
    await upstream?.close();
  });

  async function callDirectly(p: ServerProcess, key: Key) {
    directCalls += 1;
    return rpcCall(key.at(p.url), CALL);
  }

  /** How long a change of the key takes to reach each process, called directly. */
  const changed = (key: Key, change: () => Promise<void>, done: (a: GatewayAnswer) => boolean) =>
    propagation(cluster.processes, (p) => callDirectly(p, key), change, done);

  it('refuses a deactivated, then deleted key in every process within a second of the call', async () => {
    const { h } = await accounts.open('Revocation', 10);
    const key = await accounts.key(h);
    for (const p of cluster.processes) expect((await callDirectly(p, key)).status).toBe(200);
    const keyCall = (verb: 'activate' | 'deactivate') => async () => {
      expect((await owner.call('POST', `/api/v1.0/key/${key.keyId}/${verb}`, { headers: h })).status).toBe(200);
    };
    const times = [
      ...(await changed(key, keyCall('deactivate'), refusedWith(403, RpcMessages.inactiveKey))),
      ...(await changed(key, keyCall('activate'), accepted)),
      ...(await changed(key, keyCall('deactivate'), refusedWith(403, RpcMessages.inactiveKey))),
      ...(await changed(
        key,
        async () => {
          expect((await owner.call('DELETE', `/api/v1.0/key/${key.keyId}`, { headers: h })).status).toBe(200);
        },
        refusedWith(401, RpcMessages.deletedKey),
      )),
    ];
    figures.revocationMaxMs = Math.round(Math.max(...times));
    expect(figures.revocationMaxMs).toBeLessThan(PROPAGATION_BOUND_MS);
  });

  it('suspends and restores an account in every process within a second of its ledger write', async () => {
    const { accountId, h } = await accounts.open('Suspension', 10);
    const key = await accounts.key(h);
    for (const p of cluster.processes) expect((await callDirectly(p, key)).status).toBe(200);
    const enabled = async () =>
      (
        await db
          .selectFrom('accounts')
          .select('is_billing_api_enabled')
          .where('id', '=', accountId)
          .executeTakeFirstOrThrow()
      ).is_billing_api_enabled;
    // A usage charge that takes the credit to 0 suspends at once; a manual deposit restores.
    const post = (type: TransactionType, amount: string, expected: boolean) => async () => {
      await insertTransaction(db, { accountId, type, amount, status: 'COMPLETED' });
      expect(await enabled()).toBe(expected);
    };
    const times = [
      ...(await changed(key, post('WITHDRAW_RESOURCE_USAGE', '-10', false), refusedWith(403, RpcMessages.suspended))),
      ...(await changed(key, post('ADMIN_MANUAL_DEPOSIT', '10', true), accepted)),
    ];
    figures.suspensionMaxMs = Math.round(Math.max(...times));
    expect(figures.suspensionMaxMs).toBeLessThan(PROPAGATION_BOUND_MS);
  });

  it('counts a key’s gateway calls through both processes against one limit', async () => {
    const { h } = await accounts.open('Rate limit', 10);
    const key = await accounts.key(h);
    const first = cluster.proxy.served.length;
    const calls = 4 * RATE;
    const started = performance.now();
    const answers = await Promise.all(
      Array.from({ length: calls }, (_, i) => rpcCall(key.at(cluster.proxy.url), { ...CALL, id: i + 1 })),
    );
    // The limiter's windows are fixed, one second from their first call: a loaded machine may
    // spread the burst over more than one.
    const windows = Math.floor((performance.now() - started) / 1000) + 1;
    const allowed = answers.filter((a) => a.status === 200);
    figures.rateLimitAllowed = allowed.length;
    figures.rateLimitRefused = calls - allowed.length;
    expect(new Set(cluster.proxy.served.slice(first).map((s) => s.backend))).toEqual(new Set([0, 1]));
    expect(allowed.length).toBeGreaterThan(0);
    expect(allowed.length).toBeLessThanOrEqual(RATE * windows);
    answers.forEach((answer, i) => {
      if (answer.status === 200) return;
      expect(answer.status).toBe(429);
      expect(answer.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
      expect(answer.body).toEqual({
        jsonrpc: '2.0',
        id: i + 1,
        error: { code: RpcErrorCodes.rateLimited, message: RpcMessages.rateLimited(RATE) },
      });
    });
  });

  it('brings a change to a key’s own rules to every process within a second, and counts its own daily limit in both', async () => {
    // One account for both keys: the owner's accounts are few (spec A §5).
    const { h } = await accounts.open('Key rules', 10);
    const key = await accounts.key(h);
    for (const p of cluster.processes) expect((await callDirectly(p, key)).status).toBe(200);
    const settings = (of: Key, body: unknown) => async () => {
      expect((await owner.post(`/api/v1.0/key/${of.keyId}/settings`, body, h)).status).toBe(200);
    };
    const times = [
      ...(await changed(
        key,
        settings(key, { allowedMethods: ['eth_chainId'] }),
        refusedWith(403, RpcMessages.methodNotAllowed(CALL.method)),
      )),
      ...(await changed(key, settings(key, { allowedMethods: [] }), accepted)),
    ];
    figures.ruleChangeMaxMs = Math.round(Math.max(...times));
    expect(figures.ruleChangeMaxMs).toBeLessThan(PROPAGATION_BOUND_MS);

    const limited = await accounts.key(h);
    const perDay = 5;
    await settings(limited, { requestsPerDay: perDay })();
    const first = cluster.proxy.served.length;
    const answers = [];
    // One at a time, under the per-second limit: the proxy alternates the processes.
    for (let i = 1; i <= perDay + 3; i++)
      answers.push(await rpcCall(limited.at(cluster.proxy.url), { ...CALL, id: i }));
    expect(new Set(cluster.proxy.served.slice(first).map((s) => s.backend))).toEqual(new Set([0, 1]));
    expect(answers.map((a) => a.status)).toEqual([...Array(perDay).fill(200), 429, 429, 429]);
    expect(answers.at(-1)?.body.error).toEqual({
      code: RpcErrorCodes.rateLimited,
      message: RpcMessages.dailyLimit(perDay),
    });
  });

  it('refuses sign-in at the same attempt whether the attempts alternate between processes or not', async () => {
    const attemptsUntilLimited = async (signIn: () => Promise<Answer>) => {
      for (let attempt = 1; attempt <= 40; attempt++) {
        const answer = await signIn();
        if (answer.status === 429) {
          expect(answer.body.error).toBe(IdentityErrors.limitExceeded.error);
          expect(answer.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
          return attempt;
        }
        expect(answer.body.error).toBe(IdentityErrors.notAuthorized.error);
      }
      throw new Error('sign-in was never limited');
    };
    const alternating = await new Client(cluster.proxy.url, cluster.processes[0]?.url).signUp();
    const first = cluster.proxy.served.length;
    const throughBoth = await attemptsUntilLimited(() =>
      new Client(cluster.proxy.url).post('/auth/sign-in', { email: alternating.email, password: 'wrong password 1' }),
    );
    const backends = cluster.proxy.served.slice(first).map((s) => s.backend);
    expect(backends.every((b, i) => i === 0 || b !== backends[i - 1])).toBe(true);

    const single = await new Client(cluster.proxy.url, cluster.processes[0]?.url).signUp();
    const one = cluster.processes[0] as ServerProcess;
    const address = someAddress();
    const throughOne = await attemptsUntilLimited(() =>
      new Client(one.url).post(
        '/auth/sign-in',
        { email: single.email, password: 'wrong password 1' },
        { 'x-forwarded-for': address },
      ),
    );
    expect(throughBoth).toBe(throughOne);
  });

  /** Ledger rows and charges in all. */
  const rowsOf = (effects: Array<{ ledger: unknown[]; charges: unknown[] }>) =>
    effects.reduce((n, e) => n + e.ledger.length + e.charges.length, 0);
  const autoDeposited = (amount: number) => ({
    ledger: [{ type: 'DEPOSIT_AUTO', status: 'COMPLETED', amount, metadata: expect.anything() }],
    charges: [{ id: expect.any(String), status: 'SUCCEEDED' }],
  });

  it('does each job’s work once while both processes run the schedule', { timeout: 120_000 }, async () => {
    // Usage counted yesterday: the schedule bills closed days.
    const usage = await accounts.open('Usage', 10);
    const usageKey = await accounts.key(usage.h);
    const yesterday = dayOf(Date.now() - 86_400_000);
    await addUsage(db, [
      { accountId: usage.accountId, apiKeyId: usageKey.keyId, resource: RESOURCE, date: yesterday, usage: 1000 },
    ]);
    const autoPay = [
      await accounts.withAutoPay('Auto pay 1', 20, 50),
      await accounts.withAutoPay('Auto pay 2', 20, 50),
    ];
    // A deposit charged by a process that stopped before settling it: reconcile settles it.
    const stale = await accounts.withChargedDeposit('Stale deposit', 25);

    const expected = [
      {
        ledger: [
          {
            type: 'WITHDRAW_RESOURCE_USAGE',
            status: 'COMPLETED',
            amount: usageCharge(1000),
            metadata: { date: yesterday, usage: 1000, records: 1 },
          },
        ],
        charges: [],
      },
      ...autoPay.map(() => autoDeposited(50)),
      {
        ledger: [
          {
            type: 'DEPOSIT_ONE_TIME',
            status: 'COMPLETED',
            amount: 25,
            metadata: expect.objectContaining({ chargeId: stale.chargeId }),
          },
        ],
        charges: [{ id: stale.chargeId, status: 'SUCCEEDED' }],
      },
    ];
    const accountIds = [usage.accountId, ...autoPay, stale.accountId];
    const all = () => Promise.all(accountIds.map((id) => jobEffects(db, id)));
    await expect.poll(all, { timeout: 30_000, interval: 250 }).toEqual(expected);

    // Every process runs each job a few more times: the work stays done once.
    const before = cluster.processes.map((p) => SCHEDULED_JOBS.map((j) => jobRunsOf(p, j)));
    const fewestRunsSince = () =>
      Math.min(
        ...cluster.processes.flatMap((p, i) => SCHEDULED_JOBS.map((j, k) => jobRunsOf(p, j) - (before[i]?.[k] ?? 0))),
      );
    await expect.poll(fewestRunsSince, { timeout: 30_000, interval: 250 }).toBeGreaterThanOrEqual(3);
    const after = await all();
    figures.duplicateJobEffects += rowsOf(after) - rowsOf(expected);
    expect(after).toEqual(expected);
    for (const p of cluster.processes) expect(failedJobRuns(p)).toEqual([]);
  });

  it('bills and charges once when two operators run the jobs at the same instant', { timeout: 60_000 }, async () => {
    const usage = await accounts.open('Operators', 10);
    const key = await accounts.key(usage.h);
    const calls = 6;
    for (let i = 0; i < calls; i++) expect((await rpcCall(key.at(cluster.proxy.url), CALL)).status).toBe(200);
    const today = dayOf(Date.now());
    const pendingUsage = async () =>
      Number(
        (
          await db
            .selectFrom('account_resource_usage')
            .select(sql<string>`coalesce(sum(usage), 0)::text`.as('n'))
            .where('account_id', '=', usage.accountId)
            .where('status', '=', 'PENDING')
            .executeTakeFirstOrThrow()
        ).n,
      );
    // Both processes have written what they counted.
    await expect.poll(pendingUsage, { timeout: 10_000, interval: 100 }).toBe(calls);

    const autoPay = await accounts.withAutoPay('Operators auto pay', 20, 50);
    await expect.poll(() => jobEffects(db, autoPay), { timeout: 30_000, interval: 250 }).toEqual(autoDeposited(50));
    // Back above its threshold, the account is armed for the next crossing by the next run.
    const armed = async () =>
      (await db.selectFrom('accounts').select('auto_deposit_armed').where('id', '=', autoPay).executeTakeFirstOrThrow())
        .auto_deposit_armed;
    await expect.poll(armed, { timeout: 10_000, interval: 100 }).toBe(true);

    // With PostgreSQL the command line runs a job on the database itself, as each operator's would.
    const operators = await Promise.all([0, 1].map(() => operatorJobs(cluster.env)));
    try {
      // A new crossing for auto pay, then both operators run billing and auto pay at once.
      await insertTransaction(db, {
        accountId: autoPay,
        type: 'WITHDRAW_RESOURCE_USAGE',
        amount: '-45',
        status: 'COMPLETED',
      });
      const results = await Promise.all(
        operators.flatMap((op) =>
          ['billing', 'autopay'].map((job) => runCommand(op.db, ['jobs', 'run', job], op.jobs)),
        ),
      );
      operatorRuns += results.length;
    } finally {
      await Promise.all(operators.map((op) => op.db.destroy()));
    }
    const billed = await jobEffects(db, usage.accountId);
    figures.duplicateJobEffects += Math.max(0, billed.ledger.length - 1);
    expect(billed).toEqual({
      ledger: [
        {
          type: 'WITHDRAW_RESOURCE_USAGE',
          status: 'COMPLETED',
          amount: usageCharge(calls),
          metadata: { date: today, usage: calls, records: expect.any(Number) },
        },
      ],
      charges: [],
    });
    expect(await pendingUsage()).toBe(0);
    await expect
      .poll(async () => (await jobEffects(db, autoPay)).ledger.filter((r) => r.type === 'DEPOSIT_AUTO'), {
        timeout: 10_000,
      })
      .toEqual(
        [0, 1].map(() => ({ type: 'DEPOSIT_AUTO', status: 'COMPLETED', amount: 50, metadata: expect.anything() })),
      );
    const charged = await jobEffects(db, autoPay);
    figures.duplicateJobEffects += Math.max(0, charged.charges.length - 2);
    expect(charged.charges).toHaveLength(2);
  });
});
