import type { AccountDetails, SetupIntent, TransactionList } from '@ebs/contract';
import { Client } from './client.ts';

/**
 * Adds a card to an account as the console does it: a setup intent, the processor's confirmation,
 * then the attach call. Answers the card id.
 */
export async function addCard(c: Client, accountId: string, number = '4242424242424242'): Promise<string> {
  const h = { 'ebs-account-id': accountId };
  const setup = (await c.get<SetupIntent>('/api/v1.0/payment/local', h)).body.data;
  const confirmed = await fetch(`${c.baseUrl}/processor/v1/setup_intents/${setup.setupIntentId}/confirm`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_secret: setup.client_secret,
      card: { number, exp_month: 12, exp_year: 2030, cvc: '123' },
    }),
  });
  const { payment_method } = (await confirmed.json()) as { payment_method: string };
  return (await c.post<{ cardId: string }>('/api/v1.0/payment/card', { cardToken: payment_method }, h)).body.data
    .cardId;
}

/** A signed-up owner of a new account whose default card is the given number. */
export async function ownerWithCard(baseUrl: string, number = '4242424242424242') {
  const c = new Client(baseUrl);
  await c.signUp();
  const accountId = (await c.post<{ id: string }>('/api/v1.0/account', { accountName: 'pays' })).body.data.id;
  const cardId = await addCard(c, accountId, number);
  return { c, accountId, h: { 'ebs-account-id': accountId }, cardId };
}

/** What an account's owner sees: its credit, its status and its history's rows ("TYPE amount"), oldest first. */
export async function ownerView(c: Client, accountId: string) {
  const h = { 'ebs-account-id': accountId };
  const details = (await c.get<AccountDetails>('/api/v1.0/account/details', h)).body.data;
  const history = (await c.get<TransactionList>('/api/v1.0/transaction?limit=100&offset=0&order=asc', h)).body.data;
  return {
    balance: details.balance,
    status: details.status,
    rows: history.transactions.map((t) => `${t.type} ${t.amount}`),
  };
}
