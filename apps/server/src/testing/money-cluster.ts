import { randomInt } from 'node:crypto';
import type { AccountSummary, CreatedApiKey, SetupIntent } from '@ebs/contract';
import { buildJobs } from '../app/job-registry.ts';
import { loadConfig } from '../config.ts';
import { type Db, openDatabase } from '../db/database.ts';
import type { Jobs } from '../jobs/scheduler.ts';
import { outboxMailer } from '../mail/mailer.ts';
import { LocalCardProcessor } from '../modules/processor/local-processor.ts';
import { Client } from './client.ts';
import { startFixedUpstream } from './fixed-upstream.ts';
import { type Cluster, startCluster } from './server-cluster.ts';
import type { ServerProcess } from './server-process.ts';

export const GOOD_CARD = '4242424242424242';
/** Accepted when added, refused at every charge. */
export const DECLINING_CARD = '4000000000009995';
export const METERED_NETWORK = 'ethereum/mainnet';

// Random per run, so runs within a limit's window (sharing Redis) do not add up on one address.
let lastIp = randomInt(1 << 24);

/**
 * A client that speaks from an address of its own (X-Forwarded-For, the servers trusting one
 * proxy hop), so the per-address limits of sign-up mails and card entry, shared by every process
 * through Redis, count each person apart.
 */
export class PersonClient extends Client {
  constructor(
    baseUrl: string,
    readonly ip = `10.${(lastIp >> 16) & 255}.${(lastIp >> 8) & 255}.${lastIp++ & 255}`,
  ) {
    super(baseUrl);
  }

  override call<T = unknown>(
    method: string,
    urlPath: string,
    options: { body?: unknown; headers?: Record<string, string>; token?: string | null } = {},
  ) {
    return super.call<T>(method, urlPath, { ...options, headers: { 'x-forwarded-for': this.ip, ...options.headers } });
  }

  /** The same person (session and address) talking to another process. */
  at(baseUrl: string): PersonClient {
    const other = new PersonClient(baseUrl, this.ip);
    other.idToken = this.idToken;
    return other;
  }
}

/** A way to run the admin command line's jobs: its own connection pool, as another process would hold. */
export interface JobRunner {
  db: Db;
  jobs: Jobs;
}

export interface MoneyCluster {
  processes: ServerProcess[];
  /** The test's own connection, for checks and for the admin command line. */
  db: Db;
  runners: JobRunner[];
  close(): Promise<void>;
}

/**
 * Several real server processes on one fresh PostgreSQL database (and Redis when given), sharing a
 * data directory (so one token signs for all), metering calls to a local upstream; and job runners
 * with their own connections for the admin command line's `jobs run`.
 */
export async function startMoneyCluster(options: {
  adminUrl: string;
  redisUrl?: string;
  processes: number;
  runners: number;
}): Promise<MoneyCluster> {
  // An upstream node that answers every JSON-RPC call, so the gateway meters it.
  const upstream = await startFixedUpstream(METERED_NETWORK);
  const dbs: Db[] = [];
  let cluster: Cluster | undefined;
  const close = async () => {
    await Promise.all(dbs.map((db) => db.destroy()));
    await cluster?.stop();
    await upstream.close();
  };
  try {
    cluster = await startCluster({
      processes: options.processes,
      adminUrl: options.adminUrl,
      env: {
        RPC_UPSTREAMS: JSON.stringify({ [METERED_NETWORK]: [upstream.url] }),
        USAGE_FLUSH_SECONDS: '0.2',
        // A few accounts paying in bursts, far more often than anyone would: the limits are tested apart.
        PAYMENT_RATE_LIMIT_PER_MINUTE: '1000',
        PAYMENT_RATE_LIMIT_PER_DAY: '10000',
        ...(options.redisUrl ? { REDIS_URL: options.redisUrl } : {}),
      },
    });
    const { env } = cluster;
    const config = loadConfig({ ...env, NODE_ENV: 'test' });
    const log = { info: () => {} };
    const open = async () => {
      const db = await openDatabase({ url: env.DATABASE_URL });
      dbs.push(db);
      return db;
    };
    const db = await open();
    const runners: JobRunner[] = [];
    for (let i = 0; i < options.runners; i++) {
      const runnerDb = await open();
      const provider = new LocalCardProcessor(runnerDb, config.PUBLIC_URL);
      runners.push({
        db: runnerDb,
        jobs: buildJobs({ db: runnerDb, config, provider, mailer: outboxMailer(runnerDb, log) }),
      });
    }
    return { processes: cluster.processes, db, runners, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** An account with a default card that pays, a card that is declined, and an API key, owned by a new user. */
export interface PayingAccount {
  owner: PersonClient;
  userId: string;
  accountId: string;
  cards: { good: string; declining: string };
  keyId: string;
  key: string;
}

export async function addCardAt(c: PersonClient, accountId: string, number: string): Promise<string> {
  const h = { 'ebs-account-id': accountId };
  const setup = (await c.get<SetupIntent>('/api/v1.0/payment/local', h)).body.data;
  const confirmed = await fetch(`${c.baseUrl}/processor/v1/setup_intents/${setup.setupIntentId}/confirm`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': c.ip },
    body: JSON.stringify({
      client_secret: setup.client_secret,
      card: { number, exp_month: 12, exp_year: 2030, cvc: '123' },
    }),
  });
  if (!confirmed.ok) throw new Error(`card confirmation failed: ${await confirmed.text()}`);
  const { payment_method } = (await confirmed.json()) as { payment_method: string };
  const added = await c.post<{ cardId: string }>('/api/v1.0/payment/card', { cardToken: payment_method }, h);
  if (added.status !== 200) throw new Error(`card attach failed: ${added.body.message}`);
  return added.body.data.cardId;
}

export async function openPayingAccount(baseUrl: string, name: string): Promise<PayingAccount> {
  const owner = new PersonClient(baseUrl);
  const { userId } = await owner.signUp();
  const created = await owner.post<AccountSummary>('/api/v1.0/account', { accountName: name });
  if (created.status !== 200) throw new Error(`account creation failed: ${created.body.message}`);
  const accountId = created.body.data.id;
  const good = await addCardAt(owner, accountId, GOOD_CARD);
  const declining = await addCardAt(owner, accountId, DECLINING_CARD);
  const key = await owner.post<CreatedApiKey>(
    '/api/v1.0/key/',
    { apiKeyName: 'metered' },
    { 'ebs-account-id': accountId },
  );
  if (key.status !== 200) throw new Error(`key creation failed: ${key.body.message}`);
  return {
    owner,
    userId,
    accountId,
    cards: { good, declining },
    keyId: key.body.data.key.keyId,
    key: key.body.data.key.key,
  };
}
