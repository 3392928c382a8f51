import { randomUUID } from 'node:crypto';
import { AppError } from '@ebs/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeStripe, type RecordedRequest, startFakeStripe } from '../../testing/fake-stripe.ts';
import { stripeClient, stripeKey, toCents } from './stripe-client.ts';
import { StripeCardProvider } from './stripe-provider.ts';

describe('amounts and keys as Stripe takes them', () => {
  it('turns decimal USD into whole cents by digits, without float error', () => {
    expect(toCents('25')).toBe(2500);
    expect(toCents('19.99')).toBe(1999);
    expect(toCents('0.29')).toBe(29);
    expect(toCents('4.35')).toBe(435);
    expect(toCents('10.5')).toBe(1050);
    expect(toCents('7.000000')).toBe(700);
    expect(toCents('1000000.01')).toBe(100000001);
  });

  it('refuses a fraction of a cent, a sign and what is not a number', () => {
    for (const amount of ['1.005', '-5', '+5', '1e3', '', 'ten', '1.2.3']) {
      expect(() => toCents(amount), amount).toThrow();
    }
  });

  it('keeps a plain idempotency key and hashes one Stripe could not take or a search could not quote', () => {
    expect(stripeKey('deposit:7f0c:double-click_1')).toBe('deposit:7f0c:double-click_1');
    expect(stripeKey("it's")).toMatch(/^sha256-[0-9a-f]{64}$/);
    expect(stripeKey('x'.repeat(300))).toMatch(/^sha256-[0-9a-f]{64}$/);
    expect(stripeKey('x'.repeat(300))).not.toBe(stripeKey('x'.repeat(301)));
  });
});

describe('StripeCardProvider against a local Stripe', () => {
  let stripe: FakeStripe;
  let provider: StripeCardProvider;

  beforeAll(async () => {
    stripe = await startFakeStripe();
    provider = new StripeCardProvider(
      stripeClient({ STRIPE_SECRET_KEY: stripe.secretKey, STRIPE_API_BASE: stripe.url }),
    );
  });
  afterAll(() => stripe.close());

  const last = (method: string, path: string): RecordedRequest => {
    const found = stripe.requests.filter((r) => r.method === method && r.path === path).at(-1);
    if (!found) throw new Error(`no ${method} ${path}`);
    return found;
  };

  /** A customer holding one card confirmed as Stripe.js would; answers both ids. */
  const customerWithCard = async (number = '4242424242424242') => {
    const accountId = randomUUID();
    const customerId = await provider.createCustomer(accountId);
    const setup = await provider.createSetupIntent(accountId, customerId);
    const confirmed = stripe.confirmSetupIntent(setup.setupIntentId, { number, exp_month: 11, exp_year: 2031 });
    if (!confirmed.paymentMethod) throw new Error(confirmed.error);
    return { accountId, customerId, token: confirmed.paymentMethod };
  };

  it('makes one customer per account and off-session card setup intents in spec A’s shape', async () => {
    const accountId = randomUUID();
    const customerId = await provider.createCustomer(accountId);
    expect(customerId).toMatch(/^cus_/);
    const created = last('POST', '/v1/customers');
    expect(created.headers.authorization).toBe(`Bearer ${stripe.secretKey}`);
    expect(created.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(created.headers['idempotency-key']).toBe(`customer:${accountId}`);
    expect(created.params.get('metadata[ebs_account_id]')).toBe(accountId);
    // Two first calls that race send the same key: Stripe answers the same customer.
    expect(await provider.createCustomer(accountId)).toBe(customerId);

    const setup = await provider.createSetupIntent(accountId, customerId);
    expect(setup).toEqual({
      client_secret: expect.stringMatching(/^seti_\w+_secret_\w+$/),
      customerId,
      setupIntentId: expect.stringMatching(/^seti_/),
      accountId,
    });
    const params = Object.fromEntries(last('POST', '/v1/setup_intents').params);
    expect(params).toMatchObject({
      customer: customerId,
      usage: 'off_session',
      'allowed_payment_method_types[0]': 'card',
      'metadata[ebs_account_id]': accountId,
    });
  });

  it('finds a card only on its own customer, updates its expiry and detaches it', async () => {
    const { customerId, token } = await customerWithCard('5555555555554444');
    expect(await provider.findCard(customerId, token)).toEqual({
      brand: 'mastercard',
      last4: '4444',
      expMonth: 11,
      expYear: 2031,
    });
    const other = await provider.createCustomer(randomUUID());
    expect(await provider.findCard(other, token)).toBeUndefined();
    expect(await provider.findCard(customerId, 'pm_0000000000000000000000ab')).toBeUndefined();
    const before = stripe.requests.length;
    expect(await provider.findCard(customerId, '../customers')).toBeUndefined();
    expect(stripe.requests.length).toBe(before);

    await provider.updateExpiry(customerId, token, 3, 2033);
    expect(Object.fromEntries(last('POST', `/v1/payment_methods/${token}`).params)).toEqual({
      'card[exp_month]': '3',
      'card[exp_year]': '2033',
    });
    expect(await provider.findCard(customerId, token)).toMatchObject({ expMonth: 3, expYear: 2033 });
    await expect(provider.updateExpiry(other, token, 4, 2033)).rejects.toMatchObject({ statusCode: 400 });
    // Stripe's card error is the card holder's to read.
    const refused = await provider.updateExpiry(customerId, token, 13, 2033).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ statusCode: 402, message: "Your card's expiration month is invalid." });

    await provider.detach(other, token);
    expect(await provider.findCard(customerId, token)).toBeDefined();
    await provider.detach(customerId, token);
    expect(last('POST', `/v1/payment_methods/${token}/detach`)).toBeDefined();
    expect(await provider.findCard(customerId, token)).toBeUndefined();
    await provider.detach(customerId, token);
  });

  it('charges in cents, off-session, under the idempotency key, and answers Stripe’s receipt URL', async () => {
    const { customerId, token } = await customerWithCard();
    const key = `deposit:${randomUUID()}:first-click`;
    const input = { customerId, token, amount: '19.99', idempotencyKey: key, description: 'Deposit of 19.99 USD' };
    const charged = await provider.charge(input);
    expect(charged).toEqual({
      status: 'succeeded',
      chargeId: expect.stringMatching(/^pi_/),
      receiptUrl: expect.stringMatching(/^https:\/\/pay\.stripe\.com\/receipts\/payment\//),
    });
    const request = last('POST', '/v1/payment_intents');
    expect(request.headers['idempotency-key']).toBe(key);
    expect(request.headers.authorization).toBe(`Bearer ${stripe.secretKey}`);
    expect(Object.fromEntries(request.params)).toEqual({
      amount: '1999',
      currency: 'usd',
      customer: customerId,
      payment_method: token,
      'allowed_payment_method_types[0]': 'card',
      off_session: 'true',
      confirm: 'true',
      description: 'Deposit of 19.99 USD',
      'metadata[ebs_idempotency_key]': key,
      'expand[0]': 'latest_charge',
    });

    // A repeat of the key is Stripe's replay of the first answer: one PaymentIntent in all.
    expect(await provider.charge(input)).toEqual(charged);
    const made = [...stripe.paymentIntents.values()].filter((i) => i.metadata.ebs_idempotency_key === key);
    expect(made.map((i) => [i.id, i.amount, i.status])).toEqual([[charged.chargeId, 1999, 'succeeded']]);
  });

  it.each([
    ['4000000000000341', 'Your card was declined.'],
    ['4000000000009995', 'Your card has insufficient funds.'],
    ['4000002760003184', 'Your card was declined. This transaction requires authentication.'],
  ])('answers a decline of card %s with Stripe’s own message, also when repeated', async (number, message) => {
    const { customerId, token } = await customerWithCard(number);
    const input = { customerId, token, amount: '30', idempotencyKey: `deposit:${randomUUID()}:d`, description: 'x' };
    const declined = await provider.charge(input);
    expect(declined).toEqual({ status: 'failed', chargeId: expect.stringMatching(/^pi_/), message });
    expect(await provider.charge(input)).toEqual(declined);
    expect(await provider.findCharge(input.idempotencyKey)).toEqual(declined);
  });

  it('answers a card detached meanwhile as a failed charge with Stripe’s message', async () => {
    const { customerId, token } = await customerWithCard();
    await provider.detach(customerId, token);
    const failed = await provider.charge({
      customerId,
      token,
      amount: '5',
      idempotencyKey: `deposit:${randomUUID()}:gone`,
      description: 'x',
    });
    expect(failed).toMatchObject({ status: 'failed', message: expect.stringContaining('does not belong to') });
  });

  it('retries a lost answer with the same key, and charges once', async () => {
    const { customerId, token } = await customerWithCard();
    const key = `deposit:${randomUUID()}:flaky`;
    stripe.loseAnswers('/v1/payment_intents', 1);
    const charged = await provider.charge({ customerId, token, amount: '12', idempotencyKey: key, description: 'x' });
    expect(charged.status).toBe('succeeded');
    const sent = stripe.requests.filter((r) => r.path === '/v1/payment_intents' && r.params.get('amount') === '1200');
    expect(sent.map((r) => r.headers['idempotency-key'])).toEqual([key, key]);
    expect([...stripe.paymentIntents.values()].filter((i) => i.metadata.ebs_idempotency_key === key)).toHaveLength(1);
  });

  it('settles through findCharge a charge whose answer never came back', async () => {
    const { customerId, token } = await customerWithCard();
    const key = `deposit:${randomUUID()}:crashed`;
    expect(await provider.findCharge(key)).toBeUndefined();
    stripe.loseAnswers('/v1/payment_intents', 10);
    await expect(
      provider.charge({ customerId, token, amount: '40.50', idempotencyKey: key, description: 'x' }),
    ).rejects.toThrow();
    stripe.loseAnswers('/v1/payment_intents', 0);

    const found = await provider.findCharge(key);
    expect(found).toEqual({
      status: 'succeeded',
      chargeId: expect.stringMatching(/^pi_/),
      receiptUrl: expect.stringMatching(/^https:\/\/pay\.stripe\.com\/receipts\//),
    });
    const search = last('GET', '/v1/payment_intents/search');
    expect(search.params.get('query')).toBe(`metadata['ebs_idempotency_key']:'${key}'`);
    expect(search.params.get('expand[0]')).toBe('data.latest_charge');
    expect(stripe.paymentIntents.get((found as { chargeId: string }).chargeId)?.amount).toBe(4050);
  });

  it('keeps Stripe’s status and a bad key’s details away from the browser', async () => {
    const wrong = new StripeCardProvider(
      stripeClient({ STRIPE_SECRET_KEY: 'sk_test_wrong', STRIPE_API_BASE: stripe.url }),
    );
    const failure = await wrong.createCustomer(randomUUID()).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(Error);
    expect(failure).not.toBeInstanceOf(AppError);
    expect((failure as { statusCode?: number }).statusCode).toBeUndefined();
    expect((failure as Error).message).toMatch(/^Stripe StripeAuthenticationError: Invalid API Key provided/);
  });
});
