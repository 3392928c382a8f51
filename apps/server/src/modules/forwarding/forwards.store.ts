import type { ForwardStatus, TokenForwardingTransaction, WebhookAttempt, WebhookStatus } from '@ebs/contract';
import { type Selectable, sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { TokenForwardingTransactionsTable } from '../../db/forwarding-schema.ts';

export type ForwardRow = Selectable<TokenForwardingTransactionsTable>;

const OPEN: ForwardStatus[] = ['PENDING', 'FUNDING_GAS', 'SENDING', 'CONFIRMING'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const forwardColumns = [
  'id',
  'account_id',
  'wallet_id',
  'network',
  'token',
  'smart_contract_address',
  'from_address',
  'to_address',
  sql<string>`amount::text`.as('amount'),
  sql<string>`original_balance::text`.as('original_balance'),
  'status',
  sql<string | null>`gas_limit::text`.as('gas_limit'),
  sql<string | null>`gas_price::text`.as('gas_price'),
  'gas_tx_hash',
  'gas_raw_tx',
  'tx_hash',
  'raw_tx',
  'confirmations',
  'receipt',
  'error',
  'attempts',
  'next_step_at',
  'lease_owner',
  'lease_until',
  'webhook_id',
  'webhook_payload',
  'webhook_status',
  'webhook_attempt',
  'webhook_log',
  'webhook_next_at',
  'webhook_lease_until',
  'created_at',
  'updated_at',
] as const;

export const toTransaction = (r: ForwardRow): TokenForwardingTransaction => ({
  id: r.id,
  tokenForwardingWalletId: r.wallet_id,
  network: r.network,
  token: r.token,
  smartContractAddress: r.smart_contract_address,
  status: r.status,
  amount: r.amount,
  fromAddress: r.from_address,
  toAddress: r.to_address,
  metadata: {
    originalBalance: r.original_balance,
    confirmations: r.confirmations,
    transactionHash: r.tx_hash,
    gasFundingTransactionHash: r.gas_tx_hash,
    transactionReceipt: (r.receipt as Record<string, unknown> | null) ?? null,
    ...(r.error ? { error: r.error } : {}),
  },
  webhookStatus: r.webhook_status as WebhookStatus,
  webhookAttempt: r.webhook_attempt,
  webhookLog: (r.webhook_log as WebhookAttempt[] | null) ?? [],
  webhookId: r.webhook_id,
  createdAt: r.created_at.toISOString(),
  updatedAt: r.updated_at.toISOString(),
});

/** An account's forwards, newest first, by wallet id or by an address at either end (or the wallet's own). */
export async function listForwards(
  db: Db,
  accountId: string,
  filter: { walletId?: string; address?: string; limit: number; offset: number },
): Promise<{ rows: ForwardRow[]; total: number }> {
  if (filter.walletId !== undefined && !UUID.test(filter.walletId)) return { rows: [], total: 0 };
  let base = db.selectFrom('token_forwarding_transactions').where('account_id', '=', accountId);
  if (filter.walletId) base = base.where('wallet_id', '=', filter.walletId);
  if (filter.address) {
    const address = filter.address.toLowerCase();
    base = base.where((eb) =>
      eb.or([eb(sql`lower(from_address)`, '=', address), eb(sql`lower(to_address)`, '=', address)]),
    );
  }
  const [rows, count] = await Promise.all([
    base
      .select(forwardColumns)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(filter.limit)
      .offset(filter.offset)
      .execute(),
    base.select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows as ForwardRow[], total: Number(count.n) };
}

/** How long the scanner leaves a wallet alone after a forward from it failed. */
export const FAILED_COOL_DOWN_SECONDS = 600;

/** The enabled wallets of a network, a page at a time by id, for the scanner. */
export async function enabledWalletsPage(db: Db, network: string, afterId: string | null, limit: number) {
  let query = db
    .selectFrom('token_forwarding_wallets as w')
    .select([
      'w.id',
      'w.account_id',
      'w.address',
      'w.token',
      'w.smart_contract_address',
      'w.token_decimals',
      sql<string>`w.minimum_forwarding_amount::text`.as('minimum'),
      'w.destination_address',
      // A wallet is left alone while a forward from it is open, and for a while after one failed
      // (a token that refuses transfers must not drain the gas fee funding wallet scan after scan).
      sql<boolean>`exists (select 1 from token_forwarding_transactions t
        where t.wallet_id = w.id and (t.status not in ('COMPLETED', 'FAILED')
          or (t.status = 'FAILED' and t.updated_at > now() - make_interval(secs => ${FAILED_COOL_DOWN_SECONDS}))))`.as(
        'busy',
      ),
    ])
    .where('w.network', '=', network)
    .where('w.status', '=', 'ENABLED')
    .where('w.deleted_at', 'is', null)
    .orderBy('w.id')
    .limit(limit);
  if (afterId) query = query.where('w.id', '>', afterId);
  return query.execute();
}

/** The networks that have at least one enabled wallet. */
export async function networksWithEnabledWallets(db: Db): Promise<string[]> {
  const rows = await db
    .selectFrom('token_forwarding_wallets')
    .select('network')
    .distinct()
    .where('status', '=', 'ENABLED')
    .where('deleted_at', 'is', null)
    .execute();
  return rows.map((r) => r.network);
}

/**
 * Opens a forward of a wallet's balance; undefined when one is already open (the partial unique
 * index makes this the claim: two engines seeing the same deposit open it once).
 */
export async function openForward(
  db: Db,
  f: {
    accountId: string;
    walletId: string;
    network: string;
    token: string;
    smartContractAddress: string | null;
    fromAddress: string;
    toAddress: string;
    amount: string;
    originalBalance: string;
  },
): Promise<string | undefined> {
  const row = await db
    .insertInto('token_forwarding_transactions')
    .values({
      account_id: f.accountId,
      wallet_id: f.walletId,
      network: f.network,
      token: f.token,
      smart_contract_address: f.smartContractAddress,
      from_address: f.fromAddress,
      to_address: f.toAddress,
      amount: f.amount,
      original_balance: f.originalBalance,
      next_step_at: sql`now()`,
    })
    .onConflict((oc) => oc.column('wallet_id').where('status', 'not in', ['COMPLETED', 'FAILED']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

/** Leases open forwards that are due and not leased by a live engine; each engine works only on its own. */
export async function leaseForwards(db: Db, owner: string, leaseSeconds: number, limit: number): Promise<ForwardRow[]> {
  const rows = await db
    .updateTable('token_forwarding_transactions')
    .set({ lease_owner: owner, lease_until: sql`now() + make_interval(secs => ${leaseSeconds})` })
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('token_forwarding_transactions')
        .select('id')
        .where('status', 'in', OPEN)
        .where('next_step_at', '<=', sql<Date>`now()`)
        .where((w) =>
          w.or([w('lease_until', 'is', null), w('lease_until', '<', sql<Date>`now()`), w('lease_owner', '=', owner)]),
        )
        .orderBy('next_step_at')
        .limit(limit)
        .forUpdate()
        .skipLocked(),
    )
    .returning(forwardColumns)
    .execute();
  return rows as ForwardRow[];
}

export type ForwardPatch = Partial<{
  status: ForwardStatus;
  amount: string;
  gas_limit: string;
  gas_price: string;
  gas_tx_hash: string | null;
  gas_raw_tx: string | null;
  tx_hash: string;
  raw_tx: string;
  confirmations: number;
  receipt: string;
  error: string | null;
  attempts: number;
  webhook_id: string;
  webhook_payload: string;
  webhook_status: WebhookStatus;
}>;

/**
 * Records a step of a forward this engine holds the lease of, and when to look at it next.
 * False when the lease was lost (another engine took over): the caller must stop.
 */
export async function recordStep(
  db: Db,
  id: string,
  owner: string,
  patch: ForwardPatch,
  nextInSeconds = 0,
): Promise<boolean> {
  const row = await db
    .updateTable('token_forwarding_transactions')
    .set({
      ...patch,
      next_step_at: sql`now() + make_interval(secs => ${nextInSeconds})`,
      updated_at: sql`now()`,
      ...(patch.webhook_status === 'PENDING' ? { webhook_next_at: sql`now()` } : {}),
    })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Who holds leases of open forwards or of webhooks being delivered (their leases may have run out). */
export async function leaseHolders(db: Db): Promise<string[]> {
  const forwards = db
    .selectFrom('token_forwarding_transactions')
    .select('lease_owner as owner')
    .where('status', 'in', OPEN)
    .where('lease_owner', 'is not', null);
  const webhooks = db
    .selectFrom('token_forwarding_transactions')
    .select('webhook_lease_owner as owner')
    .where('webhook_status', '=', 'PENDING')
    .where('webhook_lease_owner', 'is not', null);
  const rows = await forwards.union(webhooks).execute();
  return rows.flatMap((r) => (r.owner ? [r.owner] : []));
}

/** Gives back at once the forwards and webhooks these owners held (processes known to be gone). */
export async function releaseLeasesOf(db: Db, owners: string[]): Promise<void> {
  if (owners.length === 0) return;
  await db
    .updateTable('token_forwarding_transactions')
    .set({ lease_owner: null, lease_until: null })
    .where('status', 'in', OPEN)
    .where('lease_owner', 'in', owners)
    .execute();
  await db
    .updateTable('token_forwarding_transactions')
    .set({ webhook_lease_owner: null, webhook_lease_until: null })
    .where('webhook_status', '=', 'PENDING')
    .where('webhook_lease_owner', 'in', owners)
    .execute();
}

/** Gives a forward back at once (a graceful stop), so another engine need not wait for the lease. */
export async function releaseLeases(db: Db, owner: string): Promise<void> {
  await db
    .updateTable('token_forwarding_transactions')
    .set({ lease_owner: null, lease_until: null })
    .where('lease_owner', '=', owner)
    .execute();
}

/** Webhook deliveries by status, and the attempts past each one's first (the operator's metrics). */
export async function webhookFigures(db: Db): Promise<{ byStatus: Map<string, number>; retries: number }> {
  const rows = await db
    .selectFrom('token_forwarding_transactions')
    .select([
      'webhook_status',
      sql<string>`count(*)::text`.as('n'),
      sql<string>`coalesce(sum(greatest(webhook_attempt - 1, 0)), 0)::text`.as('retries'),
    ])
    .where('webhook_status', '!=', 'NONE')
    .groupBy('webhook_status')
    .execute();
  return {
    byStatus: new Map(rows.map((r) => [r.webhook_status, Number(r.n)])),
    retries: rows.reduce((sum, r) => sum + Number(r.retries), 0),
  };
}
