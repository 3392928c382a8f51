// Token forwarding wallets at scale, written the way the store writes them: key indexes from the
// one sequence, addresses derived from the master seed by the app's WalletKeys, webhook header
// values sealed with the data key, each account within its limit of wallets.
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { ERC20_TOKEN, FORWARDING_NETWORKS, type Network } from '@ebs/contract';
import { sql } from 'kysely';
import type { Db } from '../../apps/server/src/db/database.ts';
import { setFeature } from '../../apps/server/src/modules/accounts/accounts.service.ts';
import { WALLETS_PER_KIND } from '../../apps/server/src/modules/forwarding/forwarding.service.ts';
import { seal } from '../../apps/server/src/secrets.ts';

const WORKER = pathToFileURL(path.join(import.meta.dirname, 'derive-addresses.worker.ts')).href;

/** The addresses of key indexes, derived in one worker per core (tsx registered in each). */
export async function deriveAddresses(seed: Buffer, indexes: number[]): Promise<string[]> {
  const workers = Math.max(1, Math.min(os.availableParallelism(), Math.ceil(indexes.length / 100)));
  const share = Math.ceil(indexes.length / workers);
  const parts = await Promise.all(
    Array.from(
      { length: workers },
      (_, w) =>
        new Promise<string[]>((resolve, reject) => {
          const worker = new Worker(
            `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(WORKER)}); })`,
            { eval: true, workerData: { seed, indexes: indexes.slice(w * share, (w + 1) * share) } },
          );
          worker.once('message', (addresses: string[]) => {
            resolve(addresses);
            void worker.terminate();
          });
          worker.once('error', reject);
        }),
    ),
  );
  return parts.flat();
}

export interface SeededWallet {
  id: string;
  address: string;
  /** Null for the native token. */
  contract: string | null;
}

/** A fresh address nobody holds the key of. */
const someAddress = () => `0x${randomBytes(20).toString('hex')}`;

/**
 * `count` enabled forwarding wallets on one network, half of them for the native token and half
 * for an ERC-20 token, spread over as many accounts (with TOKEN_FORWARDING) as the per-account
 * limit needs, each account with a gas fee funding wallet for its ERC-20 wallets.
 */
export async function seedWallets(
  db: Db,
  options: { network: Network; count: number; token: string; walletSeed: Buffer; dataKey: Buffer; minimum: string },
): Promise<SeededWallet[]> {
  const { network, count } = options;
  const info = FORWARDING_NETWORKS[network];
  if (info.kind !== 'evm') throw new Error(`${network} is not an EVM network`);
  const accounts = Math.ceil(count / WALLETS_PER_KIND);
  const { id: userId } = await db
    .insertInto('users')
    .values({
      email: `bench-forwarding-${process.pid}@example.com`,
      given_name: 'Bench',
      family_name: 'Forwarding',
      password_hash: 'not a hash: nobody signs in',
      confirmed_at: sql`now()`,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const accountIds = (
    await sql<{ id: string }>`insert into accounts (name, created_by, is_billing_api_enabled)
      select 'Forwarding ' || n, ${userId}, true from generate_series(1, ${accounts}) as s(n) returning id`.execute(db)
  ).rows.map((r) => r.id);
  for (const accountId of accountIds) await setFeature(db, accountId, 'TOKEN_FORWARDING', true);
  // One statement takes every key index the store would take one by one (nextKeyIndex).
  const indexes = (
    await sql<{ index: number }>`select nextval('wallet_key_index')::int as index
      from generate_series(1, ${accounts + count})`.execute(db)
  ).rows.map((r) => r.index);
  const addresses = await deriveAddresses(options.walletSeed, indexes);
  const gasWalletIds = (
    await sql<{ id: string }>`insert into gas_fee_funding_wallets (account_id, network, name, key_index, address)
      select a.id, ${network}, 'Gas', a.index, a.address
      from unnest(${accountIds}::uuid[], ${indexes.slice(0, accounts)}::int[], ${addresses.slice(0, accounts)}::text[])
        as a(id, index, address)
      returning id`.execute(db)
  ).rows.map((r) => r.id);
  const wallets = Array.from({ length: count }, (_, i) => {
    const account = Math.floor(i / WALLETS_PER_KIND);
    const erc20 = i % 2 === 1;
    return {
      accountId: accountIds[account] as string,
      token: erc20 ? ERC20_TOKEN : info.nativeToken,
      contract: erc20 ? options.token : null,
      gasWalletId: erc20 ? (gasWalletIds[account] as string) : null,
      index: indexes[accounts + i] as number,
      address: addresses[accounts + i] as string,
      destination: someAddress(),
      headerValue: seal(options.dataKey, `shop-${i}`),
    };
  });
  const column = <T>(pick: (w: (typeof wallets)[number]) => T) => wallets.map(pick);
  const rows = await sql<{ id: string; address: string; smart_contract_address: string | null }>`
    insert into token_forwarding_wallets (account_id, network, token, smart_contract_address, token_decimals,
      key_index, address, minimum_forwarding_amount, destination_address, gas_fee_funding_wallet_id,
      webhook_url, webhook_header, webhook_header_value)
    select w.account_id, ${network}, w.token, w.contract, 18, w.index, w.address, ${options.minimum}::numeric,
      w.destination, w.gas_wallet_id, 'https://shop.example/hooks/forwarding', 'X-Shop-Token', w.header_value
    from unnest(${column((w) => w.accountId)}::uuid[], ${column((w) => w.token)}::text[],
      ${column((w) => w.contract)}::text[], ${column((w) => w.index)}::int[], ${column((w) => w.address)}::text[],
      ${column((w) => w.destination)}::text[], ${column((w) => w.gasWalletId)}::uuid[],
      ${column((w) => w.headerValue)}::text[])
      as w(account_id, token, contract, index, address, destination, gas_wallet_id, header_value)
    returning id, address, smart_contract_address`.execute(db);
  await sql`analyze`.execute(db);
  return rows.rows.map((r) => ({ id: r.id, address: r.address, contract: r.smart_contract_address }));
}
