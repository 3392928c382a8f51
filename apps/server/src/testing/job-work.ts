import { randomUUID } from 'node:crypto';
import { type AccountSummary, type CreatedApiKey, rpcUrl } from '@ebs/contract';
import { sql } from 'kysely';
import { buildCardProvider } from '../app/card-providers.ts';
import { buildJobs } from '../app/job-registry.ts';
import { loadConfig } from '../config.ts';
import { type Db, openDatabase } from '../db/database.ts';
import type { Jobs } from '../jobs/scheduler.ts';
import { outboxMailer } from '../mail/mailer.ts';
import { findCustomerId } from '../modules/accounts/account-rows.service.ts';
import { findCard } from '../modules/cards/cards.test-kit.ts';
import { claimDeposit, insertTransaction } from '../modules/ledger/ledger.test-kit.ts';
import { LocalCardProcessor } from '../modules/processor/local-processor.ts';
import { addCard } from './cards.ts';
import type { Client } from './client.ts';
import type { ServerProcess } from './server-process.ts';

export interface Key {
  keyId: string;
  /** The key's endpoint of a network on a server (a process, or a balancer in front). */
  at(base: string): string;
}

const must = async <T>(answer: Promise<{ status: number; body: { message: string; data: T } }>, what: string) => {
  const { status, body } = await answer;
  if (status !== 200) throw new Error(`${what} failed: ${status} ${body.message}`);
  return body.data;
};

/** Accounts of one signed-in owner, made through the API, with the work the background jobs do. */
export class OwnerAccounts {
  constructor(
    private readonly owner: Client,
    private readonly db: Db,
    private readonly network: string,
  ) {}

  /** A new account credited with `credit` USD (as the admin command line's deposit does). */
  async open(name: string, credit = 0): Promise<{ accountId: string; h: Record<string, string> }> {
    const created = this.owner.post<AccountSummary>(
      '/api/v1.0/account',
      { accountName: name },
      { 'ebs-account-id': '' },
    );
    const accountId = (await must(created, 'account creation')).id;
    if (credit > 0) {
      await insertTransaction(this.db, {
        accountId,
        type: 'ADMIN_MANUAL_DEPOSIT',
        amount: String(credit),
        status: 'COMPLETED',
      });
    }
    return { accountId, h: { 'ebs-account-id': accountId } };
  }

  async key(h: Record<string, string>): Promise<Key> {
    const created = this.owner.post<CreatedApiKey>('/api/v1.0/key/', { apiKeyName: 'gateway key' }, h);
    const { keyId, key } = (await must(created, 'key creation')).key;
    return { keyId, at: (base) => rpcUrl(base, this.network, keyId, key) };
  }

  /** An account with a card and auto pay on: `amount` USD whenever its credit falls below `minBalance`. */
  async withAutoPay(name: string, minBalance: number, amount: number): Promise<string> {
    const { accountId, h } = await this.open(name);
    await addCard(this.owner, accountId);
    const settings = (fields: object) =>
      must(this.owner.post('/api/v1.0/account/updateAccountSettings', { settingName: 'autoDeposit', fields }, h), name);
    await settings({ minBalance, autoDepositAmount: amount });
    await settings({ autoDepositEnabled: true });
    return accountId;
  }

  /**
   * An account whose deposit of `amount` USD was charged by a process that stopped before it
   * settled the ledger row: the row PENDING for minutes, the charge made under its key.
   */
  async withChargedDeposit(name: string, amount: number): Promise<{ accountId: string; chargeId: string }> {
    const { accountId } = await this.open(name);
    const cardId = await addCard(this.owner, accountId);
    const card = await findCard(this.db, cardId);
    const key = `deposit:${accountId}:${randomUUID()}`;
    const pending = await claimDeposit(this.db, {
      accountId,
      type: 'DEPOSIT_ONE_TIME',
      amount: String(amount),
      status: 'PENDING',
      idempotencyKey: key,
      metadata: { cardId },
    });
    const charge = await new LocalCardProcessor(this.db, this.owner.baseUrl).charge({
      customerId: String(await findCustomerId(this.db, accountId)),
      token: String(card?.providerToken),
      amount: String(amount),
      idempotencyKey: key,
      description: `Deposit of ${amount} USD`,
    });
    await this.db
      .updateTable('account_transactions')
      .set({ created_at: sql`now() - interval '5 minutes'` })
      .where('id', '=', pending.id)
      .execute();
    return { accountId, chargeId: charge.chargeId };
  }
}

/** What the jobs did to an account: its ledger rows (but manual deposits) and its card's charges. */
export async function jobEffects(db: Db, accountId: string) {
  const customer = await findCustomerId(db, accountId);
  const ledger = await db
    .selectFrom('account_transactions')
    .select(['type', 'status', sql<string>`amount::text`.as('amount'), 'metadata'])
    .where('account_id', '=', accountId)
    .where('type', '!=', 'ADMIN_MANUAL_DEPOSIT')
    .orderBy('created_at')
    .execute();
  const charges = await db
    .selectFrom('processor_charges')
    .select(['id', 'status'])
    .where('customer_id', '=', customer ?? '')
    .orderBy('created_at')
    .execute();
  return {
    ledger: ledger.map((r) => ({ type: r.type, status: r.status, amount: Number(r.amount), metadata: r.metadata })),
    charges,
  };
}

/**
 * The jobs as the admin command line builds them on PostgreSQL (`jobs run NAME` connects to the
 * database itself): an operator's run, with a connection pool of its own.
 */
export async function operatorJobs(env: Record<string, string>): Promise<{ db: Db; jobs: Jobs }> {
  const config = loadConfig({ ...env, NODE_ENV: 'test', LOG_LEVEL: 'warn' });
  const db = await openDatabase({ url: config.DATABASE_URL });
  const { provider } = await buildCardProvider(config, db);
  return { db, jobs: buildJobs({ db, config, provider, mailer: outboxMailer(db, { info: () => {} }) }) };
}

const logLines = (p: ServerProcess) => p.output().split('\n');

/** A process's finished scheduled runs of a job, as it logs them at debug level. */
export const jobRunsOf = (p: ServerProcess, job: string) =>
  logLines(p).filter((l) => l.includes('"msg":"job ran"') && l.includes(`"job":"${job}"`)).length;

/** A process's scheduled runs that failed or left items undone. */
export const failedJobRuns = (p: ServerProcess) =>
  logLines(p).filter((l) => /"msg":"job (failed|could not process some items)"/.test(l));
