// What the data must be after the soak, once every server has stopped gracefully (its counted
// usage flushed): each check answers the rows that break it, so an empty list is a pass.
import { sql } from 'kysely';
import type { Db } from '../../apps/server/src/db/database.ts';
import type { CallCounts } from './gateway-traffic.ts';

export interface LedgerCheck {
  name: string;
  broken: string[];
}

/** Rows of a query that should find none, each shown as one line. */
async function none(db: Db, query: ReturnType<typeof sql>): Promise<string[]> {
  const { rows } = await db.executeQuery(query.compile(db));
  return rows.map((row) => JSON.stringify(row));
}

export async function checkLedger(db: Db, calls: CallCounts, oneTimeDeposits: Map<string, number>) {
  const checks: LedgerCheck[] = [];
  checks.push({
    name: 'balance, pending and row count kept per account = sums of its transactions',
    broken: await none(
      db,
      sql`select a.id, l.balance, l.pending_withdrawals, l.listed_count, t.balance as summed_balance,
            t.pending as summed_pending, t.listed as summed_listed
          from accounts a
          left join account_ledger_totals l on l.account_id = a.id
          left join (select account_id,
              coalesce(sum(amount) filter (where status = 'COMPLETED'), 0) as balance,
              coalesce(-sum(amount) filter (where status = 'PENDING' and amount < 0), 0) as pending,
              count(*) filter (where status <> 'FAILED') as listed
            from account_transactions group by account_id) t on t.account_id = a.id
          where coalesce(l.balance, 0) <> coalesce(t.balance, 0)
            or coalesce(l.pending_withdrawals, 0) <> coalesce(t.pending, 0)
            or coalesce(l.listed_count, 0) <> coalesce(t.listed, 0)`,
    ),
  });
  checks.push({
    name: 'usage record count kept per account = its usage records',
    broken: await none(
      db,
      sql`select a.id, u.record_count, r.records from accounts a
          left join account_usage_totals u on u.account_id = a.id
          left join (select account_id, count(*) as records from account_resource_usage group by account_id) r
            on r.account_id = a.id
          where coalesce(u.record_count, 0) <> coalesce(r.records, 0)`,
    ),
  });
  checks.push({
    name: 'every usage withdrawal = its billed records × their prices; billed records have one, open ones none',
    broken: await none(
      db,
      sql`select t.id, t.amount, b.amount as records_amount from account_transactions t
          left join (select transaction_id, round(sum(coalesce(compute_units, usage) * unit_price), 6) as amount from account_resource_usage
            where transaction_id is not null group by transaction_id) b on b.transaction_id = t.id
          where t.type = 'WITHDRAW_RESOURCE_USAGE' and -t.amount is distinct from b.amount
          union all
          select id, null, null from account_resource_usage
          where (status = 'BILLED') <> (transaction_id is not null)`,
    ),
  });
  checks.push({
    name: 'every completed deposit has one successful charge of its amount; no charge without its deposit',
    broken: await none(
      db,
      sql`select t.id, t.type, t.amount, t.status, c.id as charge, c.amount as charged, c.status as charge_status
          from account_transactions t
          full join processor_charges c on c.idempotency_key = t.idempotency_key
          where (t.type in ('DEPOSIT_ONE_TIME', 'DEPOSIT_AUTO') or t.id is null)
            and ((t.status = 'COMPLETED') <> (c.status = 'SUCCEEDED') or t.amount <> c.amount
              or t.id is null or c.id is null and t.status <> 'PENDING')`,
    ),
  });

  const metered = await db
    .selectFrom('account_resource_usage')
    .select(['api_key_id', sql<string>`sum(usage)`.as('usage')])
    .where('api_key_id', 'is not', null)
    .groupBy('api_key_id')
    .execute();
  const byKey = new Map(metered.map((r) => [r.api_key_id as string, Number(r.usage)]));
  const keyIds = new Set([...byKey.keys(), ...calls.byKey.keys()]);
  checks.push({
    name: 'gateway calls metered per key = calls the gateway answered',
    broken: [...keyIds]
      .filter((id) => (byKey.get(id) ?? 0) !== (calls.byKey.get(id) ?? 0))
      .map((id) => `key ${id}: metered ${byKey.get(id) ?? 0}, answered ${calls.byKey.get(id) ?? 0}`),
  });

  const deposits = await db
    .selectFrom('account_transactions')
    .select(['account_id', 'type', 'status', sql<string>`count(*)`.as('n')])
    .where('type', 'in', ['DEPOSIT_ONE_TIME', 'DEPOSIT_AUTO', 'WITHDRAW_RESOURCE_USAGE'])
    .groupBy(['account_id', 'type', 'status'])
    .execute();
  const count = (type: string, status: string, account?: string) =>
    deposits
      .filter((d) => d.type === type && d.status === status && (account === undefined || d.account_id === account))
      .reduce((sum, d) => sum + Number(d.n), 0);
  checks.push({
    name: 'completed one-time deposits = deposits the console answered as completed (seeding included)',
    broken: [...oneTimeDeposits]
      .filter(([account, n]) => count('DEPOSIT_ONE_TIME', 'COMPLETED', account) !== n)
      .map(
        ([account, n]) =>
          `account ${account}: ${count('DEPOSIT_ONE_TIME', 'COMPLETED', account)} in the ledger, ${n} answered`,
      ),
  });
  return {
    checks,
    figures: {
      meteredCalls: [...byKey.values()].reduce((a, b) => a + b, 0),
      answeredCalls: calls.total,
      autoDeposits: count('DEPOSIT_AUTO', 'COMPLETED'),
      pendingDeposits: count('DEPOSIT_AUTO', 'PENDING') + count('DEPOSIT_ONE_TIME', 'PENDING'),
      usageWithdrawals: count('WITHDRAW_RESOURCE_USAGE', 'COMPLETED'),
      oneTimeDeposits: count('DEPOSIT_ONE_TIME', 'COMPLETED'),
      declinedDeposits: count('DEPOSIT_ONE_TIME', 'FAILED'),
    },
  };
}
