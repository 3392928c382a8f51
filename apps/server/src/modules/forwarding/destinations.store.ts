import type { DestinationWallet } from '@ebs/contract';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

/** SQL of destination wallets: addresses the account forwards to, one per network and address. */

const destinationColumns = ['id', 'name', 'network', 'address', 'created_at', 'updated_at'] as const;
type DestinationRow = {
  id: string;
  name: string;
  network: string;
  address: string;
  created_at: Date;
  updated_at: Date;
};
const toDestination = (r: DestinationRow): DestinationWallet => ({
  id: r.id,
  name: r.name,
  network: r.network,
  destinationPublicAddress: r.address,
  createdAt: r.created_at.toISOString(),
  updatedAt: r.updated_at.toISOString(),
});

export async function listDestinations(db: Db, accountId: string): Promise<DestinationWallet[]> {
  const rows = await db
    .selectFrom('destination_wallets')
    .select(destinationColumns)
    .where('account_id', '=', accountId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
  return rows.map(toDestination);
}

export async function countDestinations(db: Db, accountId: string): Promise<number> {
  const row = await db
    .selectFrom('destination_wallets')
    .select(sql<string>`count(*)`.as('n'))
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Undefined when the account already has this address on this network. */
export async function insertDestination(
  db: Db,
  w: { accountId: string; network: string; name: string; address: string },
): Promise<DestinationWallet | undefined> {
  const row = await db
    .insertInto('destination_wallets')
    .values({ account_id: w.accountId, network: w.network, name: w.name, address: w.address })
    .onConflict((oc) => oc.doNothing())
    .returning(destinationColumns)
    .executeTakeFirst();
  return row && toDestination(row);
}

const sameDestination = (accountId: string, network: string, address: string) =>
  sql<boolean>`account_id = ${accountId} and network = ${network} and lower(address) = ${address.toLowerCase()}`;

export async function renameDestination(
  db: Db,
  accountId: string,
  network: string,
  address: string,
  name: string,
): Promise<DestinationWallet | undefined> {
  const row = await db
    .updateTable('destination_wallets')
    .set({ name, updated_at: sql`now()` })
    .where(sameDestination(accountId, network, address))
    .returning(destinationColumns)
    .executeTakeFirst();
  return row && toDestination(row);
}

export async function deleteDestination(db: Db, accountId: string, network: string, address: string): Promise<boolean> {
  const row = await db
    .deleteFrom('destination_wallets')
    .where(sameDestination(accountId, network, address))
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}
