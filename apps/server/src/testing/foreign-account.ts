import { randomBytes } from 'node:crypto';
import type {
  AccountDetails,
  AccountSummary,
  CreatedApiKey,
  DepositResult,
  DestinationWallet,
  GasFeeFundingWallet,
  SupportTicket,
  TokenForwardingWallet,
} from '@ebs/contract';
import { sql } from 'kysely';
import { setFeature } from '../modules/accounts/accounts.test-kit.ts';
import { openForward } from '../modules/forwarding/forwarding.test-kit.ts';
import { insertTransaction } from '../modules/ledger/ledger.test-kit.ts';
import { insertWatchingWebhook } from '../modules/notify/notify.test-kit.ts';
import { addUsage } from '../modules/usage/usage.test-kit.ts';
import { addCard } from './cards.ts';
import { type Answer, Client, uniqueEmail } from './client.ts';
import type { TestServer } from './server.ts';

/** The network every forwarding object of the seeded account lives on. */
export const SEPOLIA = 'ETHEREUM_SEPOLIA';

const hex = (bytes: number) => randomBytes(bytes).toString('hex');
const randomAddress = () => `0x${hex(20)}`;

function dataOf<T>(answer: Answer<T>, what: string): T {
  if (answer.status !== 200) throw new Error(`${what} failed: ${answer.status} ${answer.body?.message}`);
  return answer.body.data;
}

/** A signed-up user with an account of their own, named in `headers`. */
export async function userWithAccount(baseUrl: string, accountName = `Own ${hex(4)}`) {
  const client = new Client(baseUrl);
  const user = await client.signUp();
  const account = dataOf(await client.post<AccountSummary>('/api/v1.0/account', { accountName }), 'account');
  return { client, ...user, accountId: account.id, headers: { 'ebs-account-id': account.id } };
}

export type UserWithAccount = Awaited<ReturnType<typeof userWithAccount>>;

/**
 * An account holding data of every kind a console shows (members, an invitation, an API key and
 * its usage, a card, deposits, a support ticket, token forwarding wallets and a forward), and the
 * values that identify it: none of them may reach a caller who is not one of its members.
 */
export async function seedForeignAccount(server: TestServer) {
  const { db } = server;
  const owner = await userWithAccount(server.url, `Acme ${hex(6)}`);
  const { accountId, headers } = owner;
  const call = <T>(path: string, body: unknown) => owner.client.post<T>(path, body, headers);

  const member = new Client(server.url);
  const memberUser = await member.signUp();
  dataOf(await call('/api/v1.0/account/user', { email: memberUser.email }), 'add member');
  dataOf(await member.get('/api/v1.0/account'), 'member takes up the invitation');
  const inviteeEmail = uniqueEmail();
  dataOf(await call('/api/v1.0/account/user', { email: inviteeEmail }), 'invite');
  const details = dataOf(await owner.client.get<AccountDetails>('/api/v1.0/account/details', headers), 'details');
  const invitation = details.userRoles.find((role) => role.email === inviteeEmail);
  if (!invitation) throw new Error('the invitation is not listed');

  const keyName = `Key ${hex(6)}`;
  const key = dataOf(await call<CreatedApiKey>('/api/v1.0/key/', { apiKeyName: keyName }), 'key');
  await addUsage(db, [
    {
      accountId,
      apiKeyId: key.id,
      resource: 'RPC_API_ETHEREUM_MAINNET',
      date: new Date().toISOString().slice(0, 10),
      usage: 7,
    },
  ]);

  const cardId = await addCard(owner.client, accountId, '4000056655665556');
  const card = await db
    .selectFrom('payment_cards')
    .select('provider_token')
    .where('id', '=', cardId)
    .executeTakeFirstOrThrow();
  const deposit = dataOf(
    await call<DepositResult>('/api/v1.0/payment/card/deposit', { cardId, depositAmount: 50 }),
    'deposit',
  );
  const manualDeposit = await insertTransaction(db, {
    accountId,
    type: 'ADMIN_MANUAL_DEPOSIT',
    amount: '25',
    status: 'COMPLETED',
  });
  const customer = await db
    .selectFrom('accounts')
    .select('customer_id')
    .where('id', '=', accountId)
    .executeTakeFirstOrThrow();

  const ticketMessage = `Ticket ${hex(8)} about our account`;
  const ticket = dataOf(await call<SupportTicket>('/api/v1.0/support/dashboard', { message: ticketMessage }), 'ticket');
  const secret = dataOf(
    await owner.client.get<{ secret: string }>('/api/v1.0/account/signing-secret', headers),
    'signing secret',
  );

  await setFeature(db, accountId, 'TOKEN_FORWARDING', true);
  const forwarding = '/api/v1.0/token-forwarding';
  const destinationName = `Treasury ${hex(4)}`;
  const destination = dataOf(
    await call<DestinationWallet>(`${forwarding}/destination`, {
      network: SEPOLIA,
      name: destinationName,
      destinationPublicAddress: randomAddress(),
    }),
    'destination',
  );
  const gasName = `Gas ${hex(4)}`;
  const gas = dataOf(
    await call<GasFeeFundingWallet>(`${forwarding}/gas-fee-funding-wallet`, { network: SEPOLIA, name: gasName }),
    'gas wallet',
  );
  const wallet = dataOf(
    await call<TokenForwardingWallet>(`${forwarding}/wallet`, {
      network: SEPOLIA,
      token: 'ETH',
      minimumForwardingAmount: '0.001',
      destinationPublicAddress: destination.destinationPublicAddress,
    }),
    'forwarding wallet',
  );
  const forwardId = await openForward(db, {
    accountId,
    walletId: wallet.id,
    network: SEPOLIA,
    token: 'ETH',
    smartContractAddress: null,
    fromAddress: wallet.publicAddress,
    toAddress: destination.destinationPublicAddress,
    amount: '0.5',
    originalBalance: '0.5',
  });
  if (!forwardId) throw new Error('no forward opened');
  const forwardHash = `0x${hex(32)}`;
  await db
    .updateTable('token_forwarding_transactions')
    .set({ tx_hash: forwardHash })
    .where('id', '=', forwardId)
    .execute();

  const webhookName = `Watcher ${hex(4)}`;
  const webhookId = await insertWatchingWebhook(db, accountId, { name: webhookName, address: randomAddress() });

  const ids = {
    accountId,
    ownerId: owner.userId,
    memberId: memberUser.userId,
    invitationId: invitation.id,
    keyId: key.id,
    cardId,
    transactionId: deposit.transactionId,
    gasWalletId: gas.id,
    walletId: wallet.id,
    walletAddress: wallet.publicAddress,
    destinationAddress: destination.destinationPublicAddress,
    cardToken: card.provider_token,
    webhookId,
  };
  /** Every value that names the account or something in it, by what it is. */
  const identifying: Record<string, string> = {
    ...ids,
    accountName: details.name,
    ownerEmail: owner.email,
    memberEmail: memberUser.email,
    inviteeEmail,
    keyName,
    keySecret: key.key.key,
    customerId: customer.customer_id ?? '',
    chargeReceipt: deposit.receiptUrl.split('/').at(-1) ?? '',
    manualDeposit,
    ticketId: ticket.ticketId,
    ticketMessage,
    signingSecret: secret.secret,
    destinationName,
    gasName,
    gasWalletAddress: gas.publicAddress,
    forwardId,
    forwardHash,
    webhookName,
  };
  for (const [name, value] of Object.entries(identifying)) {
    if (value.length < 8) throw new Error(`${name} is too short to look for`);
  }
  return { owner, member, ids, identifying };
}

export type ForeignAccount = Awaited<ReturnType<typeof seedForeignAccount>>;

/**
 * Every stored row that belongs to the account (each table with an account_id column, the
 * account itself, and its charges at the card processor), to show that calls left it unchanged.
 */
export async function accountSnapshot(server: TestServer, accountId: string) {
  const { db } = server;
  const tables = await sql<{ table_name: string }>`
    select table_name from information_schema.columns
    where column_name = 'account_id' and table_schema = current_schema()
    order by table_name`.execute(db);
  const snapshot: Record<string, unknown[]> = {};
  for (const { table_name } of tables.rows) {
    const rows = await sql<Record<string, unknown>>`
      select * from ${sql.table(table_name)} where account_id = ${accountId}`.execute(db);
    snapshot[table_name] = rows.rows.map((row) => JSON.stringify(row)).sort();
  }
  snapshot.accounts = (
    await sql<Record<string, unknown>>`select * from accounts where id = ${accountId}`.execute(db)
  ).rows;
  snapshot.processor_charges = (
    await sql<Record<string, unknown>>`
      select c.* from processor_charges c join accounts a on a.customer_id = c.customer_id
      where a.id = ${accountId} order by c.id`.execute(db)
  ).rows;
  return snapshot;
}
