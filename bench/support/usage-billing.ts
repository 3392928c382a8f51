// The daily billing job at scale: many accounts with a day of usage in every RPC resource, seeded
// with set-based SQL, and the checks that one run billed each account exactly what it owes.
import { RPC_RESOURCES } from '@ebs/contract';
import { sql } from 'kysely';
import { buildCardProvider } from '../../apps/server/src/app/card-providers.ts';
import { buildJobs } from '../../apps/server/src/app/job-registry.ts';
import { loadConfig } from '../../apps/server/src/config.ts';
import type { Db } from '../../apps/server/src/db/database.ts';
import { outboxMailer } from '../../apps/server/src/mail/mailer.ts';
import { setPrice, utcDay } from '../../apps/server/src/modules/usage/usage.service.ts';

const seconds = (since: number) => (performance.now() - since) / 1000;

/** Deterministic ids, so that account n is found again without a lookup table. */
const accountId = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const sqlAccountId = (n: unknown) => sql`('00000000-0000-4000-8000-' || lpad(${n}::text, 12, '0'))::uuid`;

/** Odd prices with 10 decimals (the column's scale), so that the once-per-day rounding to 6 shows. */
const priceOf = (r: number) => `0.00001${r}3457`;
/** Requests of account n in resource r: spread from 1 to 250 000. */
const usageOf = (n: number, r: number) => 1 + ((n * 7919 + r * 104_729) % 250_000);
/** Every tenth account starts with 1 USD, which its usage overdraws: the job's sweep keeps it suspended. */
const depositOf = (n: number) => (n % 10 === 0 ? 1 : 100);

export interface ExpectedBill {
  accountId: string;
  usage: number;
  /** The withdrawal in micro-USD: Σ usage × price, rounded half up once (docs/decisions.md). */
  micros: bigint;
  depositMicros: bigint;
}

/** What the job must post for each account, computed here in exact integers, not by the database. */
export function expectedBills(accounts: number): ExpectedBill[] {
  const bills: ExpectedBill[] = [];
  for (let n = 1; n <= accounts; n++) {
    let usage = 0;
    let tenBillionths = 0n;
    for (let r = 0; r < RPC_RESOURCES.length; r++) {
      const u = usageOf(n, r);
      usage += u;
      tenBillionths += BigInt(u) * BigInt(priceOf(r).replace('0.', ''));
    }
    bills.push({
      accountId: accountId(n),
      usage,
      micros: (tenBillionths + 5_000n) / 10_000n,
      depositMicros: BigInt(depositOf(n)) * 1_000_000n,
    });
  }
  return bills;
}

/**
 * `accounts` accounts of one user, each with one API key, a manual deposit, and a PENDING usage
 * record of `date` in each of the 10 RPC resources at the operator's price (set with `price set`'s
 * own function). Billing state is consistent, as the gateway's flushes leave it.
 */
export async function seedUsage(db: Db, accounts: number, date: string): Promise<void> {
  for (const [r, resource] of RPC_RESOURCES.entries()) await setPrice(db, resource, priceOf(r));
  const { id: userId } = await db
    .insertInto('users')
    .values({
      email: `bench-jobs-${process.pid}@example.com`,
      given_name: 'Bench',
      family_name: 'Jobs',
      password_hash: 'not a hash: nobody signs in',
      confirmed_at: sql`now()`,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const series = sql`generate_series(1, ${accounts}) as s(n)`;
  await sql`insert into accounts (id, name, created_by)
    select ${sqlAccountId(sql`n`)}, 'Bench ' || n, ${userId} from ${series}`.execute(db);
  await sql`insert into api_keys (id, account_id, name, key_hash)
    select gen_random_uuid(), ${sqlAccountId(sql`n`)}, 'bench', 'not a hash' from ${series}`.execute(db);
  await sql`insert into account_transactions (account_id, type, amount, status, metadata)
    select ${sqlAccountId(sql`n`)}, 'ADMIN_MANUAL_DEPOSIT', case when n % 10 = 0 then 1 else 100 end, 'COMPLETED',
      '{"note": "bench"}' from ${series}`.execute(db);
  await sql`insert into account_resource_usage (account_id, api_key_id, resource_name, date, usage, unit_price)
    select k.account_id, k.id, p.resource_name, ${date}::date,
      1 + ((s.n::bigint * 7919 + (r.ord - 1) * 104729) % 250000), p.unit_price
    from ${series}
    join api_keys k on k.account_id = ${sqlAccountId(sql`s.n`)}
    cross join unnest(${sql.val([...RPC_RESOURCES])}::text[]) with ordinality as r(name, ord)
    join resource_prices p on p.resource_name = r.name`.execute(db);
  await sql`update accounts a set is_billing_api_enabled = (
      (select sum(t.amount) from account_transactions t where t.account_id = a.id)
      - (select sum(u.usage * u.unit_price) from account_resource_usage u where u.account_id = a.id)) > 0`.execute(db);
  await sql`analyze`.execute(db);
}

const microsText = (micros: bigint) => {
  const sign = micros < 0n ? '-' : '';
  const abs = micros < 0n ? -micros : micros;
  return `${sign}${abs / 1_000_000n}.${String(abs % 1_000_000n).padStart(6, '0')}`;
};

/**
 * Everything one run must have done, read back from the tables: one COMPLETED withdrawal per
 * account with the exact amount and the day's usage, every record BILLED and linked to its
 * account's withdrawal, each balance and suspension flag right. Returns the problems found.
 */
export async function checkBilled(db: Db, bills: ExpectedBill[], date: string): Promise<string[]> {
  const problems: string[] = [];
  const rows = await sql<{ account_id: string; amount: string; status: string; metadata: Record<string, unknown> }>`
    select account_id, amount::text as amount, status, metadata from account_transactions
    where type = 'WITHDRAW_RESOURCE_USAGE'`.execute(db);
  const byAccount = new Map<string, (typeof rows.rows)[number][]>();
  for (const row of rows.rows) byAccount.set(row.account_id, [...(byAccount.get(row.account_id) ?? []), row]);
  if (rows.rows.length !== bills.length)
    problems.push(`${rows.rows.length} WITHDRAW_RESOURCE_USAGE transactions, expected ${bills.length}`);
  const balances = await sql<{ id: string; balance: string; enabled: boolean }>`
    select a.id, (select sum(t.amount) from account_transactions t
      where t.account_id = a.id and t.status = 'COMPLETED')::text as balance,
      a.is_billing_api_enabled as enabled
    from accounts a`.execute(db);
  const balanceOf = new Map(balances.rows.map((b) => [b.id, b]));
  for (const bill of bills) {
    const posted = byAccount.get(bill.accountId) ?? [];
    const want = microsText(-bill.micros);
    const row = posted[0];
    if (posted.length !== 1 || !row) {
      problems.push(`${bill.accountId}: ${posted.length} withdrawals`);
    } else if (
      row.amount !== want ||
      row.status !== 'COMPLETED' ||
      row.metadata.date !== date ||
      row.metadata.usage !== bill.usage ||
      row.metadata.records !== RPC_RESOURCES.length
    ) {
      problems.push(`${bill.accountId}: posted ${JSON.stringify(row)}, expected ${want} for usage ${bill.usage}`);
    }
    const remaining = bill.depositMicros - bill.micros;
    const account = balanceOf.get(bill.accountId);
    if (account?.balance !== microsText(remaining) || account.enabled !== remaining > 0n)
      problems.push(`${bill.accountId}: balance ${JSON.stringify(account)}, expected ${microsText(remaining)}`);
    if (problems.length > 10) break;
  }
  const records = await sql<{ open: string; unlinked: string }>`
    select count(*) filter (where u.status <> 'BILLED')::text as open,
      count(*) filter (where t.id is null or t.account_id <> u.account_id or t.type <> 'WITHDRAW_RESOURCE_USAGE')::text
        as unlinked
    from account_resource_usage u left join account_transactions t on t.id = u.transaction_id`.execute(db);
  const { open, unlinked } = records.rows[0] ?? { open: '?', unlinked: '?' };
  if (open !== '0' || unlinked !== '0')
    problems.push(`usage records: ${open} not BILLED, ${unlinked} not linked to their account's withdrawal`);
  return problems;
}

export interface BillingMeasurement {
  seedSeconds: number;
  /** One run of the job as the scheduler starts it. */
  seconds: number;
  run: { transactions: number; records: number; errors: string[]; changed: number };
  /** The run after it, which must bill nothing. */
  again: { transactions: number; records: number; errors: string[] };
  againSeconds: number;
  problems: string[];
}

/**
 * Seeds a day of usage (yesterday, UTC: the schedule bills closed days), times one run of the
 * `billing` job exactly as the scheduler starts it (the registry's job, `{ scheduled: true }`),
 * checks what it posted, and runs it again, which must find nothing left to bill.
 */
export async function measureBilling(db: Db, accounts: number, dataDir: string): Promise<BillingMeasurement> {
  const date = utcDay(new Date(Date.now() - 86_400_000));
  let since = performance.now();
  await seedUsage(db, accounts, date);
  const seedSeconds = seconds(since);
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'warn' });
  const mailer = outboxMailer(db, { info: () => {} });
  const jobs = buildJobs({ db, config, provider: (await buildCardProvider(config, db)).provider, mailer });
  const billing = jobs.billing;
  if (!billing) throw new Error('the job registry has no billing job');
  since = performance.now();
  const run = (await billing({ scheduled: true })) as BillingMeasurement['run'];
  const runSeconds = seconds(since);
  const problems = await checkBilled(db, expectedBills(accounts), date);
  if (run.transactions !== accounts || run.records !== accounts * RPC_RESOURCES.length || run.errors.length > 0)
    problems.push(`the run answered ${JSON.stringify(run).slice(0, 300)}`);
  since = performance.now();
  const again = (await billing({ scheduled: true })) as BillingMeasurement['again'];
  const againSeconds = seconds(since);
  if (again.transactions !== 0 || again.records !== 0 || again.errors.length > 0)
    problems.push(`a second run billed again: ${JSON.stringify(again).slice(0, 300)}`);
  const [total] = (
    await sql<{ n: string }>`select count(*)::text as n from account_transactions
      where type = 'WITHDRAW_RESOURCE_USAGE'`.execute(db)
  ).rows;
  if (total?.n !== String(accounts)) problems.push(`${total?.n} withdrawals after the second run`);
  return { seedSeconds, seconds: runSeconds, run, again, againSeconds, problems };
}
