import type { GasFeeFundingWallet, TokenForwardingWallet, WalletStatus } from '@ebs/contract';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

/** Each new forwarding or gas fee funding wallet takes the next key index (one sequence for all). */
export async function nextKeyIndex(db: Db): Promise<number> {
  const row = await sql<{ index: number }>`select nextval('wallet_key_index')::int as index`.execute(db);
  const index = row.rows[0]?.index;
  if (index === undefined) throw new Error('no key index');
  return index;
}

export interface GasWalletRow {
  id: string;
  account_id: string;
  name: string;
  network: string;
  address: string;
  key_index: number;
  balance: string;
  balance_checked_at: Date;
  created_at: Date;
}
const gasColumns = [
  'id',
  'account_id',
  'name',
  'network',
  'address',
  'key_index',
  sql<string>`balance::text`.as('balance'),
  'balance_checked_at',
  'created_at',
] as const;

export const toGasWallet = (r: GasWalletRow, token: string): GasFeeFundingWallet => ({
  id: r.id,
  name: r.name,
  network: r.network,
  publicAddress: r.address,
  token,
  balance: r.balance,
  updatedAt: r.balance_checked_at.toISOString(),
  createdAt: r.created_at.toISOString(),
});

const liveGas = (db: Db, accountId: string) =>
  db.selectFrom('gas_fee_funding_wallets').where('account_id', '=', accountId).where('deleted_at', 'is', null);

export async function listGasWallets(db: Db, accountId: string): Promise<GasWalletRow[]> {
  return liveGas(db, accountId).select(gasColumns).orderBy('created_at', 'desc').orderBy('id').execute();
}

export async function countGasWallets(db: Db, accountId: string): Promise<number> {
  const row = await liveGas(db, accountId).select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function findGasWallet(db: Db, accountId: string, id: string): Promise<GasWalletRow | undefined> {
  return liveGas(db, accountId).select(gasColumns).where('id', '=', id).executeTakeFirst();
}

/** A gas fee funding wallet by id whatever its account (the engine's view). */
export async function gasWalletById(db: Db, id: string): Promise<GasWalletRow | undefined> {
  return db.selectFrom('gas_fee_funding_wallets').select(gasColumns).where('id', '=', id).executeTakeFirst();
}

export async function insertGasWallet(
  db: Db,
  w: { accountId: string; network: string; name: string; keyIndex: number; address: string },
): Promise<GasWalletRow> {
  return db
    .insertInto('gas_fee_funding_wallets')
    .values({ account_id: w.accountId, network: w.network, name: w.name, key_index: w.keyIndex, address: w.address })
    .returning(gasColumns)
    .executeTakeFirstOrThrow();
}

export async function renameGasWallet(
  db: Db,
  accountId: string,
  id: string,
  name: string,
): Promise<GasWalletRow | undefined> {
  return db
    .updateTable('gas_fee_funding_wallets')
    .set({ name, updated_at: sql`now()` })
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .where('deleted_at', 'is', null)
    .returning(gasColumns)
    .executeTakeFirst();
}

/** Records a balance read from the chain; a balance that covers forwards again re-arms the low-balance e-mail. */
export async function setGasBalance(
  db: Db,
  id: string,
  balance: string,
  enough?: boolean,
): Promise<GasWalletRow | undefined> {
  return db
    .updateTable('gas_fee_funding_wallets')
    .set({
      balance,
      balance_checked_at: sql`now()`,
      ...(enough ? { low_balance_notified_at: null } : {}),
    })
    .where('id', '=', id)
    .returning(gasColumns)
    .executeTakeFirst();
}

/** Marks the low-balance e-mail as sent; false when it already was since the balance last sufficed. */
export async function claimLowBalanceNotice(db: Db, id: string): Promise<boolean> {
  const row = await db
    .updateTable('gas_fee_funding_wallets')
    .set({ low_balance_notified_at: sql`now()` })
    .where('id', '=', id)
    .where('low_balance_notified_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function softDeleteGasWallet(db: Db, accountId: string, id: string): Promise<boolean> {
  const row = await db
    .updateTable('gas_fee_funding_wallets')
    .set({ deleted_at: sql`now()`, updated_at: sql`now()` })
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .where('deleted_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function countWalletsUsingGas(db: Db, gasWalletId: string): Promise<number> {
  const row = await db
    .selectFrom('token_forwarding_wallets')
    .select(sql<string>`count(*)`.as('n'))
    .where('gas_fee_funding_wallet_id', '=', gasWalletId)
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

// ---- token forwarding wallets ----

export interface ForwardingWalletRow {
  id: string;
  account_id: string;
  network: string;
  token: string;
  smart_contract_address: string | null;
  token_decimals: number;
  key_index: number;
  address: string;
  status: WalletStatus;
  status_reason: string | null;
  minimum_forwarding_amount: string;
  destination_address: string;
  gas_fee_funding_wallet_id: string | null;
  webhook_url: string | null;
  webhook_header: string | null;
  webhook_header_value: string | null;
  balance: string | null;
  balance_checked_at: Date | null;
  created_at: Date;
  updated_at: Date;
}
export const forwardingColumns = [
  'id',
  'account_id',
  'network',
  'token',
  'smart_contract_address',
  'token_decimals',
  'key_index',
  'address',
  'status',
  'status_reason',
  sql<string>`minimum_forwarding_amount::text`.as('minimum_forwarding_amount'),
  'destination_address',
  'gas_fee_funding_wallet_id',
  'webhook_url',
  'webhook_header',
  'webhook_header_value',
  sql<string | null>`balance::text`.as('balance'),
  'balance_checked_at',
  'created_at',
  'updated_at',
] as const;

/** The answer shape; the header value arrives already unsealed. */
export const toForwardingWallet = (r: ForwardingWalletRow, headerValue: string | null): TokenForwardingWallet => ({
  id: r.id,
  network: r.network,
  token: r.token,
  smartContractAddress: r.smart_contract_address,
  publicAddress: r.address,
  status: r.status,
  statusReason: r.status_reason,
  minimumForwardingAmount: r.minimum_forwarding_amount,
  destinationPublicAddress: r.destination_address,
  gasFeeFundingWalletId: r.gas_fee_funding_wallet_id,
  webhookSetting: r.webhook_url
    ? { url: r.webhook_url, header: r.webhook_header ?? '', headerValue: headerValue ?? '' }
    : null,
  balance: r.balance,
  balanceLastCheckedAt: r.balance_checked_at?.toISOString() ?? null,
  createdAt: r.created_at.toISOString(),
  updatedAt: r.updated_at.toISOString(),
});

const liveForwarding = (db: Db, accountId: string) =>
  db.selectFrom('token_forwarding_wallets').where('account_id', '=', accountId).where('deleted_at', 'is', null);

export async function listForwardingWallets(
  db: Db,
  accountId: string,
  statuses: WalletStatus[],
): Promise<ForwardingWalletRow[]> {
  if (statuses.length === 0) return [];
  return liveForwarding(db, accountId)
    .select(forwardingColumns)
    .where('status', 'in', statuses)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute() as Promise<ForwardingWalletRow[]>;
}

export async function countForwardingWallets(db: Db, accountId: string): Promise<number> {
  const row = await liveForwarding(db, accountId).select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function findForwardingWallet(
  db: Db,
  accountId: string,
  id: string,
): Promise<ForwardingWalletRow | undefined> {
  return liveForwarding(db, accountId).select(forwardingColumns).where('id', '=', id).executeTakeFirst() as Promise<
    ForwardingWalletRow | undefined
  >;
}

export async function insertForwardingWallet(
  db: Db,
  w: {
    accountId: string;
    network: string;
    token: string;
    smartContractAddress: string | null;
    tokenDecimals: number;
    keyIndex: number;
    address: string;
    minimumForwardingAmount: string;
    destinationAddress: string;
    gasFeeFundingWalletId: string | null;
    webhookUrl: string | null;
    webhookHeader: string | null;
    webhookHeaderValueSealed: string | null;
  },
): Promise<ForwardingWalletRow> {
  return db
    .insertInto('token_forwarding_wallets')
    .values({
      account_id: w.accountId,
      network: w.network,
      token: w.token,
      smart_contract_address: w.smartContractAddress,
      token_decimals: w.tokenDecimals,
      key_index: w.keyIndex,
      address: w.address,
      minimum_forwarding_amount: w.minimumForwardingAmount,
      destination_address: w.destinationAddress,
      gas_fee_funding_wallet_id: w.gasFeeFundingWalletId,
      webhook_url: w.webhookUrl,
      webhook_header: w.webhookHeader,
      webhook_header_value: w.webhookHeaderValueSealed,
    })
    .returning(forwardingColumns)
    .executeTakeFirstOrThrow() as Promise<ForwardingWalletRow>;
}

export async function setWalletStatus(
  db: Db,
  accountId: string,
  id: string,
  status: WalletStatus,
  reason: string | null,
): Promise<ForwardingWalletRow | undefined> {
  return db
    .updateTable('token_forwarding_wallets')
    .set({ status, status_reason: reason, updated_at: sql`now()` })
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .where('deleted_at', 'is', null)
    .returning(forwardingColumns)
    .executeTakeFirst() as Promise<ForwardingWalletRow | undefined>;
}

/** Deletes (softly: its forwards keep naming it) unless a forward from it is open. */
export async function softDeleteForwardingWallet(db: Db, accountId: string, id: string): Promise<boolean> {
  const row = await db
    .updateTable('token_forwarding_wallets')
    .set({ deleted_at: sql`now()`, updated_at: sql`now()` })
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .where('deleted_at', 'is', null)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('token_forwarding_transactions as t')
            .select('t.id')
            .whereRef('t.wallet_id', '=', 'token_forwarding_wallets.id')
            .where('t.status', 'not in', ['COMPLETED', 'FAILED']),
        ),
      ),
    )
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Records the balance the scanner or a refresh read. */
export async function setWalletBalances(db: Db, balances: Array<{ id: string; balance: string }>): Promise<void> {
  if (balances.length === 0) return;
  await sql`
    update token_forwarding_wallets w set balance = v.balance::numeric, balance_checked_at = now()
    from (values ${sql.join(balances.map((b) => sql`(${b.id}::uuid, ${b.balance})`))}) as v(id, balance)
    where w.id = v.id`.execute(db);
}

/** Whether an address is one of this service's forwarding or gas fee funding wallets (any account). */
export async function isServiceWallet(db: Db, address: string): Promise<boolean> {
  const lower = address.toLowerCase();
  const row = await db
    .selectFrom('token_forwarding_wallets')
    .select('id')
    .where(sql<boolean>`lower(address) = ${lower}`)
    .unionAll(db.selectFrom('gas_fee_funding_wallets').select('id').where(sql<boolean>`lower(address) = ${lower}`))
    .executeTakeFirst();
  return row !== undefined;
}
