// The soak's customers, made through the API as people make them: sign-up, account, card, deposit,
// keys; one account on auto pay, one whose card has no funds.
import { randomUUID } from 'node:crypto';
import type { AccountSummary, CreatedApiKey } from '@ebs/contract';
import { addCard } from '../../apps/server/src/testing/cards.ts';
import { Client } from '../../apps/server/src/testing/client.ts';
import type { GatewayTarget } from './gateway-traffic.ts';

/** Networks the keys call, all answered by the fixed upstream; each meters its own resource. */
export const NETWORKS = ['polygon/mainnet', 'ethereum/mainnet', 'bsc/mainnet'] as const;
/** The auto pay account's network, priced higher so that its credit crosses the threshold every minute or two. */
export const AUTO_PAY_NETWORK = 'aurora/mainnet';
export const AUTO_PAY_RESOURCE = 'RPC_API_AURORA_MAINNET';
export const AUTO_PAY_PRICE = '0.002';
export const AUTO_PAY = { minBalance: 10, autoDepositAmount: 10 };
const GOOD_CARD = '4242424242424242';
/** The local processor's test card that attaches but whose charges fail: "insufficient funds". */
const EMPTY_CARD = '4000000000009995';

export interface SoakAccount {
  id: string;
  name: string;
  cardId: string;
  /** Whether its card pays: deposits answer 200, else 402. */
  paying: boolean;
}

export interface SoakUser {
  email: string;
  password: string;
  client: Client;
  accounts: SoakAccount[];
}

function check(answer: { status: number; body: { message: string } }, what: string): void {
  if (answer.status !== 200) throw new Error(`${what}: HTTP ${answer.status} ${answer.body?.message}`);
}

export async function deposit(client: Client, account: SoakAccount, amount: number) {
  return client.post(
    '/api/v1.0/payment/card/deposit',
    { cardId: account.cardId, depositAmount: amount },
    { 'ebs-account-id': account.id, 'idempotency-key': randomUUID() },
  );
}

async function newAccount(client: Client, name: string, card: string): Promise<SoakAccount> {
  const created = await client.post<AccountSummary>(
    '/api/v1.0/account',
    { accountName: name },
    { 'ebs-account-id': '' },
  );
  check(created, `account ${name}`);
  const id = created.body.data.id;
  return { id, name, cardId: await addCard(client, id, card), paying: card !== EMPTY_CARD };
}

/** Waits until a credited account may use the gateway. */
async function enabled(client: Client, accountId: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const details = await client.get<{ isBillingApiEnabled: boolean }>('/api/v1.0/account/details', {
      'ebs-account-id': accountId,
    });
    if (details.body.data?.isBillingApiEnabled) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`account ${accountId} was not enabled in 10 s`);
}

async function newKey(client: Client, accountId: string, name: string) {
  const key = await client.post<CreatedApiKey>('/api/v1.0/key/', { apiKeyName: name }, { 'ebs-account-id': accountId });
  check(key, `key ${name}`);
  return { keyId: key.body.data.key.keyId, secret: key.body.data.key.key };
}

/**
 * `users` customers with a paid account and two keys each (on the NETWORKS in turn); the first also
 * owns the auto pay account and its key, the second an account whose card cannot pay. Codes are read
 * from `mailboxUrl`, a server of its own: the dev outbox answers no request a proxy forwarded.
 */
export async function seed(
  baseUrl: string,
  mailboxUrl: string,
  users: number,
): Promise<{ users: SoakUser[]; targets: GatewayTarget[] }> {
  const seeded: SoakUser[] = [];
  const targets: GatewayTarget[] = [];
  for (let u = 0; u < users; u++) {
    const client = new Client(baseUrl, mailboxUrl);
    const { email, password } = await client.signUp(
      `soak-${u}-${randomUUID().slice(0, 8)}@example.com`,
      'soak password 1',
    );
    const main = await newAccount(client, `Soak ${u + 1}`, GOOD_CARD);
    check(await deposit(client, main, 500), 'deposit');
    await enabled(client, main.id);
    for (let k = 0; k < 2; k++) {
      const key = await newKey(client, main.id, `soak ${k + 1}`);
      targets.push({ ...key, network: NETWORKS[(u * 2 + k) % NETWORKS.length] as string });
    }
    const user: SoakUser = { email, password, client, accounts: [main] };
    if (u === 0) {
      const autoPay = await newAccount(client, 'Soak auto pay', GOOD_CARD);
      check(await deposit(client, autoPay, 20), 'deposit');
      const headers = { 'ebs-account-id': autoPay.id };
      const settings = '/api/v1.0/account/updateAccountSettings';
      check(await client.post(settings, { settingName: 'autoDeposit', fields: AUTO_PAY }, headers), 'auto pay amounts');
      check(
        await client.post(settings, { settingName: 'autoDeposit', fields: { autoDepositEnabled: true } }, headers),
        'auto pay on',
      );
      await enabled(client, autoPay.id);
      targets.push({ ...(await newKey(client, autoPay.id, 'soak auto pay')), network: AUTO_PAY_NETWORK });
      user.accounts.push(autoPay);
    }
    if (u === 1) user.accounts.push(await newAccount(client, 'Soak no funds', EMPTY_CARD));
    seeded.push(user);
  }
  return { users: seeded, targets };
}
