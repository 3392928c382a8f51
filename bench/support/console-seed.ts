// The console at scale, seeded with set-based SQL straight into the database before the server
// starts: accounts of every size owned by one bench user, among many small accounts of other users.
// Every row is one the app itself would write (see each statement), dated over two years.
import { DEFAULT_REQUEST_PRICE_USD, OWNER_ROLE, RPC_RESOURCES } from '@ebs/contract';
import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../apps/server/src/db/database.ts';
import { hashPassword } from '../../apps/server/src/modules/identity/passwords.ts';
import { insightStatements } from './insight-seed.ts';

/** Days of history: the oldest rows are this many days old, the newest of today. */
export const HISTORY_DAYS = 730;
/**
 * The newest days hold what a steady customer makes: RECENT_KEYS keys calling every RPC network,
 * one usage record per key, network and day. The charts (at most 180 days) read only these.
 */
export const RECENT_DAYS = 200;
const RECENT_KEYS = 2;
export const RECENT_PER_DAY = RECENT_KEYS * RPC_RESOURCES.length;
/** Usage records per ledger row, as in the issue: 1 000 000 transactions, 5 000 000 usage records. */
export const USAGE_PER_TRANSACTION = 5;
/** Every 97th card deposit was declined: FAILED rows stay in the table, out of the history. */
const DECLINED_EVERY = 97;

export interface MeasuredAccount {
  id: string;
  /** Deposits: the transactions that are not the billing job's daily withdrawals. */
  deposits: number;
  /** Ledger rows, FAILED ones included. */
  transactions: number;
  /** Rows the transaction history lists (all but FAILED). */
  listedTransactions: number;
  usageRecords: number;
}

export interface Dataset {
  email: string;
  password: string;
  measured: MeasuredAccount[];
  /** All accounts in the database, the measured ones included. */
  accounts: number;
}

/**
 * Seeded ids: kind and owner in the first group, a running number in the last, so that each
 * statement fills its primary key in order (random ids would cost a random index insert per row).
 * Owner 255 is the background: the running number is then the background account's.
 */
const KIND = { user: 1, account: 2, key: 3, deposit: 4, usage: 5, card: 6, withdrawal: 7, idempotency: 8 } as const;
const BACKGROUND = 255;
const prefix = (kind: number, owner: number) =>
  `5eed${kind.toString(16).padStart(2, '0')}${owner.toString(16).padStart(2, '0')}-0000-4000-8000-`;
const seedId = (kind: number, owner: number, n: number) => `${prefix(kind, owner)}${n.toString(16).padStart(12, '0')}`;
const sqlId = (kind: number, owner: number, n: RawBuilder<unknown>) =>
  sql<string>`(${sql.lit(prefix(kind, owner))} || lpad(to_hex(${n}), 12, '0'))::uuid`;
/** Constants go into the statements as literals: a parameter in a select list has no type to take. */
const uuid = (id: string) => sql.raw(`'${id}'::uuid`);
const text = (value: string) => sql.lit(value);

const RESOURCES = sql.raw(`array[${RPC_RESOURCES.map((r) => `'${r}'`).join(', ')}]`);
const PRICE = sql.raw(`${DEFAULT_REQUEST_PRICE_USD}::numeric`);
const TODAY = sql`(now() at time zone 'UTC')::date`;
/** An instant of a UTC day, `minutes` after its midnight, never in the future. */
const onDay = (day: RawBuilder<unknown>, minutes: RawBuilder<unknown>) =>
  sql`least(now(), (${day})::timestamp at time zone 'UTC' + make_interval(mins => (${minutes})::int))`;

/**
 * How a measured account's usage records lie: the newest RECENT_DAYS days hold RECENT_PER_DAY
 * records a day, the rest `perDay` a day on the days before (one record per key, network and day,
 * so the old days had many more keys, since deleted). Every day but today is billed.
 */
function usageLayout(records: number) {
  const recent = RECENT_DAYS * RECENT_PER_DAY;
  const perDay = Math.max(1, Math.ceil((records - recent) / (HISTORY_DAYS - RECENT_DAYS)));
  const oldDays = Math.ceil((records - recent) / perDay);
  return {
    recent,
    perDay,
    oldKeys: Math.ceil(perDay / RPC_RESOURCES.length),
    billedDays: RECENT_DAYS - 1 + oldDays,
  };
}

/** Page 100 of a history table needs 1000 rows, the usage layout its recent days. */
export const SMALLEST_SIZE = 1100;

export function plan(sizes: number[], accounts: number): Dataset {
  if (sizes.some((s) => !Number.isInteger(s) || s < SMALLEST_SIZE)) {
    throw new Error(`every size must be a whole number of at least ${SMALLEST_SIZE} transactions`);
  }
  if (accounts < sizes.length) throw new Error('fewer accounts than measured sizes');
  return {
    email: `bench-console-${process.pid}@example.com`,
    password: 'bench password 1',
    accounts,
    measured: sizes.map((transactions, i) => {
      const usageRecords = transactions * USAGE_PER_TRANSACTION;
      const deposits = transactions - usageLayout(usageRecords).billedDays;
      // Declined: every DECLINED_EVERY-th deposit unless it is a manual credit (n % 10 = 9).
      let declined = 0;
      for (let n = DECLINED_EVERY; n <= deposits; n += DECLINED_EVERY) if (n % 10 !== 9) declined++;
      return {
        id: seedId(KIND.account, i, 0),
        deposits,
        transactions,
        listedTransactions: transactions - declined,
        usageRecords,
      };
    }),
  };
}

/** One measured account's usage records (see usageLayout), oldest first. */
function usageRows(records: number) {
  const { recent, perDay } = usageLayout(records);
  const R = RPC_RESOURCES.length;
  return sql`
    select g, n, day_ago, key_no, resource_no, 1 + (n::bigint * 7919) % 4999 as usage
    from generate_series(0, ${sql.lit(records - 1)}) g
    cross join lateral (select ${sql.lit(records - 1)} - g as n) a
    cross join lateral (select
      case when n < ${sql.lit(recent)} then n / ${sql.lit(RECENT_PER_DAY)}
        else ${sql.lit(RECENT_DAYS)} + (n - ${sql.lit(recent)}) / ${sql.lit(perDay)} end as day_ago,
      case when n < ${sql.lit(recent)} then (n % ${sql.lit(RECENT_PER_DAY)}) / ${sql.lit(R)}
        else ${sql.lit(RECENT_KEYS)} + ((n - ${sql.lit(recent)}) % ${sql.lit(perDay)}) / ${sql.lit(R)} end as key_no,
      case when n < ${sql.lit(recent)} then n % ${sql.lit(R)}
        else ((n - ${sql.lit(recent)}) % ${sql.lit(perDay)}) % ${sql.lit(R)} end as resource_no) d`;
}

function measuredStatements(dataset: Dataset, userId: RawBuilder<unknown>): RawBuilder<unknown>[] {
  const statements: RawBuilder<unknown>[] = [];
  for (const [i, account] of dataset.measured.entries()) {
    const accountId = uuid(account.id);
    const cardId = seedId(KIND.card, i, 0);
    const created = sql`now() - make_interval(days => ${sql.lit(HISTORY_DAYS)})`;
    statements.push(sql`insert into accounts (id, name, is_billing_api_enabled, customer_id, created_by, created_at)
      values (${accountId}, ${text(`Bench ${account.transactions}`)}, true, ${text(`cus_bench${i}`)}, ${userId}, ${created})`);
    statements.push(sql`insert into account_members (account_id, user_id, role_name, created_at)
      values (${accountId}, ${userId}, ${text(OWNER_ROLE)}, ${created})`);
    statements.push(sql`insert into payment_cards (id, account_id, provider, provider_token, brand, last4, exp_month, exp_year, is_default, created_at)
      values (${uuid(cardId)}, ${accountId}, 'local', ${text(`pm_bench${i}`)}, 'visa', '4242', 12, 2030, true, ${created})`);
    // The keys of today, then the old ones: deleted (the usage they made keeps naming them).
    const { oldKeys } = usageLayout(account.usageRecords);
    statements.push(sql`insert into api_keys (id, account_id, name, key_hash, status, deleted_at, created_by, created_at, updated_at)
      select ${sqlId(KIND.key, i, sql`k`)}, ${accountId}, 'Key ' || k, encode(sha256(convert_to(${text(account.id)} || k::text, 'UTF8')), 'hex'),
        case when k < ${sql.lit(RECENT_KEYS)} then 'ACTIVE' else 'INACTIVE' end,
        case when k < ${sql.lit(RECENT_KEYS)} then null else now() - make_interval(days => ${sql.lit(RECENT_DAYS)}) end,
        ${userId}, ${created}, ${created}
      from generate_series(0, ${sql.lit(RECENT_KEYS + oldKeys - 1)}) k`);
    // The gateway's insight: the request log and the per-method figures (support/insight-seed.ts).
    statements.push(...insightStatements(accountId, (k) => sqlId(KIND.key, i, k), account.transactions));
    // Usage: today's records open (PENDING), every earlier day's billed with that day's withdrawal.
    const day = sql`${TODAY} - day_ago`;
    statements.push(sql`insert into account_resource_usage
        (id, account_id, api_key_id, resource_name, date, usage, unit_price, status, transaction_id, created_at, updated_at)
      select ${sqlId(KIND.usage, i, sql`g`)}, ${accountId}, ${sqlId(KIND.key, i, sql`key_no`)},
        (${RESOURCES})[1 + resource_no], ${day}, usage, ${PRICE},
        case when day_ago = 0 then 'PENDING' else 'BILLED' end,
        case when day_ago = 0 then null else ${sqlId(KIND.withdrawal, i, sql`${sql.lit(HISTORY_DAYS)} - day_ago`)} end,
        ${onDay(day, sql`5 + n % 600`)},
        case when day_ago = 0 then ${onDay(day, sql`5 + n % 600`)} else ${onDay(sql`${day} + 1`, sql`5`)} end
      from (${usageRows(account.usageRecords)}) u`);
    // The billing job's withdrawals: a day's usage × price rounded once to 6 decimals, posted after midnight.
    statements.push(sql`insert into account_transactions (id, account_id, type, amount, status, metadata, created_at, updated_at)
      select ${sqlId(KIND.withdrawal, i, sql`${sql.lit(HISTORY_DAYS)} - day_ago`)}, ${accountId}, 'WITHDRAW_RESOURCE_USAGE',
        -round(sum(usage) * ${PRICE}, 6), 'COMPLETED',
        jsonb_build_object('date', (${day})::text, 'usage', sum(usage), 'records', count(*)),
        ${onDay(sql`${day} + 1`, sql`5`)}, ${onDay(sql`${day} + 1`, sql`5`)}
      from (${usageRows(account.usageRecords)}) u
      where day_ago > 0 group by day_ago order by day_ago desc`);
    // Deposits spread evenly over the history: auto-pay (70 %), one-time card deposits (20 %), manual credits (10 %).
    const { deposits } = account;
    statements.push(sql`insert into account_transactions
        (id, account_id, type, amount, status, metadata, idempotency_key, created_at, updated_at)
      select ${sqlId(KIND.deposit, i, sql`n`)}, ${accountId}, type, 10 + n % 91, status,
        case when type = 'ADMIN_MANUAL_DEPOSIT' then jsonb_build_object('note', 'Seeded credit')
          when status = 'FAILED' then jsonb_build_object('cardId', ${text(cardId)}, 'failure', 'Your card was declined.', 'chargeId', charge)
          else jsonb_build_object('cardId', ${text(cardId)}, 'chargeId', charge,
            'receiptUrl', 'http://localhost:8080/processor/v1/receipts/' || charge) end,
        case when type = 'DEPOSIT_AUTO' then ${text(`autopay:${account.id}:`)} || ${sqlId(KIND.idempotency, i, sql`n`)}::text
          when type = 'DEPOSIT_ONE_TIME' then (${sqlId(KIND.idempotency, i, sql`n`)})::text end,
        at, at + interval '3 seconds'
      from generate_series(1, ${sql.lit(deposits)}) n
      cross join lateral (select case when n % 10 < 7 then 'DEPOSIT_AUTO' when n % 10 < 9 then 'DEPOSIT_ONE_TIME'
        else 'ADMIN_MANUAL_DEPOSIT' end as type) t
      cross join lateral (select case when n % ${sql.lit(DECLINED_EVERY)} = 0 and type <> 'ADMIN_MANUAL_DEPOSIT'
        then 'FAILED' else 'COMPLETED' end as status,
        'ch_' || lpad(to_hex(${sql.lit(i)}), 4, '0') || lpad(to_hex(n), 20, '0') as charge,
        now() - make_interval(days => ${sql.lit(HISTORY_DAYS)})
          + (make_interval(days => ${sql.lit(HISTORY_DAYS)}) - interval '1 minute') * (n::float8 / ${sql.lit(deposits)}) as at) s`);
  }
  return statements;
}

/**
 * The other accounts, one user each: a welcome credit, a manual credit, yesterday's usage in four
 * networks billed by one withdrawal, and today's open record.
 */
function backgroundStatements(count: number, passwordHash: string): RawBuilder<unknown>[] {
  const statements: RawBuilder<unknown>[] = [];
  if (count === 0) return statements;
  const range = sql`generate_series(1, ${sql.lit(count)}) b`;
  const user = sqlId(KIND.user, BACKGROUND, sql`b`);
  const account = sqlId(KIND.account, BACKGROUND, sql`b`);
  const created = sql`now() - make_interval(days => 2 + (b % ${sql.lit(HISTORY_DAYS - 2)})::int)`;
  statements.push(sql`insert into users (id, email, given_name, family_name, password_hash, confirmed_at, welcome_credit_redeemed, created_at)
    select ${user}, 'seed-' || b || '@example.com', 'Seed', 'User ' || b, ${text(passwordHash)}, ${created}, true, ${created}
    from ${range}`);
  statements.push(sql`insert into accounts (id, name, is_billing_api_enabled, created_by, created_at)
    select ${account}, 'Account ' || b, true, ${user}, ${created} from ${range}`);
  statements.push(sql`insert into account_members (account_id, user_id, role_name, created_at)
    select ${account}, ${user}, ${text(OWNER_ROLE)}, ${created} from ${range}`);
  statements.push(sql`insert into api_keys (id, account_id, name, key_hash, created_by, created_at, updated_at)
    select ${sqlId(KIND.key, BACKGROUND, sql`b`)}, ${account}, 'Key', encode(sha256(convert_to(b::text, 'UTF8')), 'hex'),
      ${user}, ${created}, ${created} from ${range}`);
  const usage = sql`100 + (b * 13 + r * 7) % 900`;
  const withdrawal = sqlId(KIND.withdrawal, BACKGROUND, sql`b`);
  statements.push(sql`insert into account_resource_usage
      (id, account_id, api_key_id, resource_name, date, usage, unit_price, status, transaction_id, created_at, updated_at)
    select ${sqlId(KIND.usage, BACKGROUND, sql`b * 8 + r`)}, ${account}, ${sqlId(KIND.key, BACKGROUND, sql`b`)},
      (${RESOURCES})[1 + r % 4], ${TODAY} - (r < 4)::int, ${usage}, ${PRICE},
      case when r < 4 then 'BILLED' else 'PENDING' end, case when r < 4 then ${withdrawal} end,
      ${onDay(sql`${TODAY} - (r < 4)::int`, sql`60`)},
      case when r < 4 then ${onDay(TODAY, sql`5`)} else ${onDay(TODAY, sql`60`)} end
    from ${range} cross join generate_series(0, 4) r`);
  statements.push(sql`insert into account_transactions (id, account_id, type, amount, status, metadata, idempotency_key, created_at, updated_at)
    select ${sqlId(KIND.deposit, BACKGROUND, sql`b * 2`)}, ${account}, 'WELCOME_CREDIT', 10, 'COMPLETED', '{}'::jsonb,
      'welcome-credit:' || ${user}, ${created} + interval '1 minute', ${created} + interval '1 minute' from ${range}
    union all
    select ${sqlId(KIND.deposit, BACKGROUND, sql`b * 2 + 1`)}, ${account}, 'ADMIN_MANUAL_DEPOSIT', 25, 'COMPLETED',
      jsonb_build_object('note', 'Seeded credit'), null, ${created} + interval '2 minutes', ${created} + interval '2 minutes'
    from ${range}`);
  statements.push(sql`insert into account_transactions (id, account_id, type, amount, status, metadata, created_at, updated_at)
    select ${withdrawal}, ${account}, 'WITHDRAW_RESOURCE_USAGE', -round(sum(${usage}) * ${PRICE}, 6), 'COMPLETED',
      jsonb_build_object('date', (${TODAY} - 1)::text, 'usage', sum(${usage}), 'records', 4),
      ${onDay(TODAY, sql`5`)}, ${onDay(TODAY, sql`5`)}
    from ${range} cross join generate_series(0, 3) r group by b order by b`);
  return statements;
}

/** The whole load: the bench user, the background, the measured accounts, then their totals. */
async function loadStatements(db: Db, dataset: Dataset): Promise<RawBuilder<unknown>[]> {
  const passwordHash = await hashPassword(dataset.password);
  const userId = uuid(seedId(KIND.user, 0, 0));
  // Built once after the load, by sorting, instead of one insert per row into each: a fifth less
  // time. Indexes behind constraints (primary keys, unique keys) stay.
  const { rows: indexes } = await sql<{ name: string; definition: string }>`
    select indexname as name, indexdef as definition from pg_indexes i
    where schemaname = current_schema()
      and tablename in ('account_transactions', 'account_resource_usage', 'rpc_request_log', 'rpc_method_stats')
      and not exists (select from pg_constraint c where c.conindid = (quote_ident(i.indexname))::regclass)`.execute(db);
  return [
    sql`set session_replication_role = replica`,
    ...indexes.map((index) => sql`drop index ${sql.id(index.name)}`),
    sql`insert into users (id, email, given_name, family_name, password_hash, confirmed_at, created_at)
      values (${userId}, ${text(dataset.email)}, 'Bench', 'Console', ${text(passwordHash)}, now(), now())`,
    ...backgroundStatements(dataset.accounts - dataset.measured.length, passwordHash),
    ...measuredStatements(dataset, userId),
    ...indexes.map((index) => sql.raw(index.definition)),
    sql`set session_replication_role = origin`,
    sql`select account_totals_recount()`,
  ];
}

/**
 * Seeds the dataset into a migrated, empty database, then (with `vacuum`) refreshes the planner's
 * statistics and the visibility map, as autovacuum does on PostgreSQL after such a load (PGlite
 * has no autovacuum: docs/performance.md shows its figures without). Foreign keys and
 * triggers are off during the load (`session_replication_role`): the rows are consistent by
 * construction, and checking three foreign keys per row would take longer than the load; the
 * totals the triggers keep are rebuilt once at the end. With `oneRoundTrip` the statements go in
 * one simple query: PostgreSQL then loads on its own while this process seeds PGlite meanwhile
 * (PGlite runs in this thread and holds it for each statement). Returns the seconds it took.
 */
export async function seed(
  db: Db,
  dataset: Dataset,
  options: { oneRoundTrip: boolean; vacuum: boolean },
): Promise<number> {
  const statements = await loadStatements(db, dataset);
  const started = performance.now();
  await db.connection().execute(async (conn) => {
    if (options.oneRoundTrip) {
      const script = statements.map((statement) => {
        const compiled = statement.compile(conn);
        if (compiled.parameters.length > 0) throw new Error(`a seed statement has parameters: ${compiled.sql}`);
        return compiled.sql;
      });
      await sql.raw(script.join(';\n')).execute(conn);
    } else {
      for (const statement of statements) await statement.execute(conn);
    }
    if (options.vacuum) await sql`vacuum analyze`.execute(conn);
  });
  return (performance.now() - started) / 1000;
}
