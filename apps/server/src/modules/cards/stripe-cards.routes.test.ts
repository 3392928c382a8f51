import { Messages, type PaymentCard, type PublicConfig, type SetupIntent, type TransactionList } from '@ebs/contract';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { Client } from '../../testing/client.ts';
import { testDatabases } from '../../testing/databases.ts';
import { startFakeStripe } from '../../testing/fake-stripe.ts';
import { serverFor } from '../../testing/server.ts';

// Stripe's stand-in listens before the servers start: their configuration names its address.
const stripe = await startFakeStripe();
afterAll(() => stripe.close());
const PUBLISHABLE_KEY = 'pk_test_51ConsoleTestsPublishableKey';

describe.each(testDatabases)('cards and deposits with CARD_PROVIDER=stripe on $name', (database) => {
  const server = serverFor(database, {
    CARD_PROVIDER: 'stripe',
    STRIPE_SECRET_KEY: stripe.secretKey,
    STRIPE_PUBLISHABLE_KEY: PUBLISHABLE_KEY,
    STRIPE_API_BASE: stripe.url,
  });

  /** A signed-in owner of a new account, adding cards as the console's Stripe dialog does. */
  const owner = async () => {
    const c = new Client(server().url);
    await c.signUp();
    const accountId = (await c.post<{ id: string }>('/api/v1.0/account', { accountName: 'stripe' })).body.data.id;
    const h = { 'ebs-account-id': accountId };
    const add = async (number = '4242424242424242') => {
      const setup = (await c.get<SetupIntent>('/api/v1.0/payment/stripe', h)).body.data;
      // What Stripe.js does in the browser with the client secret: the console never sees the number.
      const { paymentMethod } = stripe.confirmSetupIntent(setup.setupIntentId, { number });
      const attached = await c.post<{ cardId: string }>('/api/v1.0/payment/card', { cardToken: paymentMethod }, h);
      expect([attached.status, attached.body.message]).toEqual([200, Messages.cardAdded]);
      return { cardId: attached.body.data.cardId, paymentMethod: paymentMethod as string, setup };
    };
    const deposit = (cardId: string, depositAmount: number, key: string) =>
      c.post<{ transactionId: string; receiptUrl: string }>(
        '/api/v1.0/payment/card/deposit',
        { cardId, depositAmount },
        { ...h, 'idempotency-key': key },
      );
    const balance = async () => (await c.get<{ balance: number }>('/api/v1.0/account/details', h)).body.data.balance;
    return { c, accountId, h, add, deposit, balance };
  };
  const chargesFor = (key: string) =>
    [...stripe.paymentIntents.values()].filter((i) => i.metadata.ebs_idempotency_key === key);

  it('tells the browser the provider and its publishable key, never the secret, and serves no local processor', async () => {
    const answer = await fetch(`${server().url}/api/v1.0/config`);
    const text = await answer.text();
    expect((JSON.parse(text) as { data: PublicConfig }).data).toMatchObject({
      cardProvider: 'stripe',
      stripePublishableKey: PUBLISHABLE_KEY,
    });
    expect(text).not.toContain(stripe.secretKey);
    const processor = await fetch(`${server().url}/processor/v1/setup_intents/seti_x/confirm`, { method: 'POST' });
    expect(processor.status).toBe(404);
  });

  it('adds a card confirmed with Stripe and deposits with it: cents, the key, Stripe’s receipt', async () => {
    const o = await owner();
    const local = await o.c.get('/api/v1.0/payment/local', o.h);
    expect([local.status, local.body.message]).toEqual([400, 'Cards are handled by the stripe card payment provider.']);
    const { cardId, setup } = await o.add();
    expect(setup).toMatchObject({ accountId: o.accountId, customerId: expect.stringMatching(/^cus_/) });
    expect(setup.client_secret).toMatch(/^seti_\w+_secret_\w+$/);
    const cards = (await o.c.get<PaymentCard[]>('/api/v1.0/payment/card', o.h)).body.data;
    expect(cards).toEqual([
      { id: cardId, defaultPaymentMethod: true, card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2034 } },
    ]);

    const answer = await o.deposit(cardId, 25, 'stripe-first-1');
    expect([answer.status, answer.body.message]).toEqual([200, Messages.paymentProcessing]);
    const key = `deposit:${o.accountId}:stripe-first-1`;
    const sent = stripe.requests.filter(
      (r) => r.path === '/v1/payment_intents' && r.headers['idempotency-key'] === key,
    );
    expect(sent).toHaveLength(1);
    expect(sent[0]?.headers.authorization).toBe(`Bearer ${stripe.secretKey}`);
    expect(Object.fromEntries(sent[0]?.params ?? [])).toMatchObject({
      amount: '2500',
      currency: 'usd',
      customer: setup.customerId,
      off_session: 'true',
      confirm: 'true',
    });
    const [charge] = chargesFor(key);
    expect(charge?.status).toBe('succeeded');
    expect(answer.body.data.receiptUrl).toMatch(/^https:\/\/pay\.stripe\.com\/receipts\/payment\//);

    const history = (await o.c.get<TransactionList>('/api/v1.0/transaction?limit=10&offset=0', o.h)).body.data;
    expect(history.transactions).toMatchObject([
      { id: answer.body.data.transactionId, amount: 25, metadata: { receiptUrl: answer.body.data.receiptUrl } },
    ]);
    // A double click is one charge and one deposit.
    const again = await o.deposit(cardId, 25, 'stripe-first-1');
    expect(again.body.data.transactionId).toBe(answer.body.data.transactionId);
    expect(chargesFor(key)).toHaveLength(1);
    expect(await o.balance()).toBe(25);
  });

  it('charges once for parallel requests with one key while Stripe is slow', async () => {
    const o = await owner();
    const { cardId } = await o.add();
    stripe.chargeDelayMs = 300;
    try {
      const answers = await Promise.all(Array.from({ length: 4 }, () => o.deposit(cardId, 8, 'stripe-parallel-1')));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    } finally {
      stripe.chargeDelayMs = 0;
    }
    expect(chargesFor(`deposit:${o.accountId}:stripe-parallel-1`)).toHaveLength(1);
    expect(await o.balance()).toBe(8);
  });

  it('shows Stripe’s own message for a declined deposit and posts nothing', async () => {
    const o = await owner();
    const { cardId } = await o.add('4000000000000341');
    const answer = await o.deposit(cardId, 30, 'stripe-declined-1');
    expect(answer.status).toBe(402);
    expect(answer.body).toMatchObject({ message: 'Your card was declined.', error: 'card_error' });
    expect(await o.balance()).toBe(0);
  });

  it('settles on reconcile a deposit whose charge answer was lost', async () => {
    const o = await owner();
    const { cardId } = await o.add();
    stripe.loseAnswers('/v1/payment_intents', 10);
    try {
      expect((await o.deposit(cardId, 40, 'stripe-lost-1')).status).toBe(500);
    } finally {
      stripe.loseAnswers('/v1/payment_intents', 0);
    }
    const key = `deposit:${o.accountId}:stripe-lost-1`;
    expect(chargesFor(key).map((i) => i.status)).toEqual(['succeeded']);
    expect(await o.balance()).toBe(0);
    // Search lags writes: only deposits pending for a minute are looked up.
    await sql`update account_transactions set created_at = now() - interval '2 minutes'
      where idempotency_key = ${key}`.execute(server().db);
    expect(await server().deps.deposits.reconcile()).toBeGreaterThanOrEqual(1);
    expect(await o.balance()).toBe(40);
    const row = await server()
      .db.selectFrom('account_transactions')
      .select(['status', 'metadata'])
      .where('idempotency_key', '=', key)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('COMPLETED');
    expect(row.metadata).toMatchObject({ receiptUrl: expect.stringMatching(/^https:\/\/pay\.stripe\.com\//) });
    expect(chargesFor(key)).toHaveLength(1);
  });

  it('attaches only a card Stripe holds for this account, edits its expiry and detaches a removed one', async () => {
    const o = await owner();
    const stranger = await owner();
    const theirs = await stranger.add();
    const refused = await o.c.post('/api/v1.0/payment/card', { cardToken: theirs.paymentMethod }, o.h);
    expect([refused.status, refused.body.message]).toEqual([400, Messages.cardUnknownToProvider]);

    const first = await o.add();
    const second = await o.add('5555555555554444');
    const updated = await o.c.post(
      '/api/v1.0/payment/card/update',
      {
        cardId: second.cardId,
        expireMonth: 6,
        expireYear: 2035,
      },
      o.h,
    );
    expect([updated.status, updated.body.message]).toEqual([200, Messages.cardUpdated]);
    expect(
      Object.fromEntries(
        stripe.requests.filter(
          (r) => r.method === 'POST' && r.path === `/v1/payment_methods/${second.paymentMethod}`,
        )[0]?.params ?? [],
      ),
    ).toEqual({ 'card[exp_month]': '6', 'card[exp_year]': '2035' });

    const removed = await o.c.post('/api/v1.0/payment/card/remove', { cardId: second.cardId }, o.h);
    expect([removed.status, removed.body.message]).toEqual([200, Messages.cardRemoved]);
    expect(stripe.requests.some((r) => r.path === `/v1/payment_methods/${second.paymentMethod}/detach`)).toBe(true);
    const left = (await o.c.get<PaymentCard[]>('/api/v1.0/payment/card', o.h)).body.data;
    expect(left.map((card) => card.id)).toEqual([first.cardId]);
  });
});
