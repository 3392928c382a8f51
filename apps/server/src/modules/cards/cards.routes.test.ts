import { Messages, type PaymentCard, type PaymentSubscription, type SetupIntent } from '@ebs/contract';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { Client } from '../../testing/client.ts';
import { testDatabases } from '../../testing/databases.ts';
import { serverFor } from '../../testing/server.ts';
import { ProcessorMessages } from '../processor/card-number.ts';

interface SetupState {
  status: string;
  payment_method: string;
  next_action?: { type: string };
}

describe.each(testDatabases)('payment cards on $name', (database) => {
  const server = serverFor(database);

  /** A signed-in owner of a new account, with helpers that act as the console and its card dialog. */
  const owner = async () => {
    const c = new Client(server().url);
    await c.signUp();
    const accountId = (await c.post<{ id: string }>('/api/v1.0/account', { accountName: 'cards' })).body.data.id;
    const h = { 'ebs-account-id': accountId };
    const intent = async () => (await c.get<SetupIntent>('/api/v1.0/payment/local', h)).body.data;
    const confirm = (setup: SetupIntent, number: string, extra: Record<string, unknown> = {}) =>
      processor(`/processor/v1/setup_intents/${setup.setupIntentId}/confirm`, {
        client_secret: setup.client_secret,
        card: { number, exp_month: 12, exp_year: 2030, cvc: '123', ...extra },
      });
    const attach = (cardToken: string) => c.post<{ cardId: string }>('/api/v1.0/payment/card', { cardToken }, h);
    const add = async (number = '4242424242424242') => {
      const confirmed = await confirm(await intent(), number);
      expect(confirmed.status).toBe(200);
      const attached = await attach(confirmed.state.payment_method);
      expect(attached.status).toBe(200);
      return attached.body.data.cardId;
    };
    const list = async () => (await c.get<PaymentCard[]>('/api/v1.0/payment/card', h)).body.data;
    const post = (path: string, body: unknown) => c.post(`/api/v1.0/payment/card/${path}`, body, h);
    return { c, accountId, h, intent, confirm, attach, add, list, post };
  };

  /** The processor answers as a hosted provider does: the object itself, or an error with a message. */
  const processor = async (path: string, body: unknown) => {
    const response = await fetch(server().url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await response.json()) as SetupState & { message?: string };
    return { status: response.status, state: json, message: json.message };
  };

  it('creates setup intents for one customer per account', async () => {
    const o = await owner();
    const first = await o.intent();
    expect(first).toMatchObject({ accountId: o.accountId });
    expect(first.client_secret).toMatch(/^seti_\w+_secret_\w+$/);
    expect((await o.intent()).customerId).toBe(first.customerId);
    const other = await o.c.get('/api/v1.0/payment/stripe', o.h);
    expect(other.status).toBe(400);
    expect(other.body.message).toBe('Cards are handled by the local card payment provider.');
  });

  it('creates one customer even when two first setup intents race, and ignores a customer id sent at creation', async () => {
    const c = new Client(server().url);
    await c.signUp();
    const accountId = (
      await c.post<{ id: string }>('/api/v1.0/account', { accountName: 'racing', customerId: 'cus_someoneelse' })
    ).body.data.id;
    const h = { 'ebs-account-id': accountId };
    const [a, b] = await Promise.all([
      c.get<SetupIntent>('/api/v1.0/payment/local', h),
      c.get<SetupIntent>('/api/v1.0/payment/local', h),
    ]);
    expect(a.body.data.customerId).toBe(b.body.data.customerId);
    expect(a.body.data.customerId).not.toBe('cus_someoneelse');
    const stored = await server()
      .db.selectFrom('accounts')
      .select('customer_id')
      .where('id', '=', accountId)
      .executeTakeFirstOrThrow();
    expect(stored.customer_id).toBe(a.body.data.customerId);
  });

  it('subscribes the account to the card provider once: the customer its setup intents then use', async () => {
    const o = await owner();
    // As the console sends it: no body at all.
    const subscribe = () =>
      o.c.call<PaymentSubscription>('POST', '/api/v1.0/payment/subscribePayment', { headers: o.h });
    const answers = await Promise.all([subscribe(), subscribe(), subscribe()]);
    const first = answers[0]?.body.data;
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(first).toMatchObject({ accountId: o.accountId, provider: 'local' });
    expect(first?.customerId).toMatch(/^cus_/);
    expect(answers.map((a) => a.body.data.customerId)).toEqual([
      first?.customerId,
      first?.customerId,
      first?.customerId,
    ]);
    expect((await subscribe()).body.data.customerId).toBe(first?.customerId);
    expect((await o.intent()).customerId).toBe(first?.customerId);
  });

  it('refuses a body on subscribePayment and subscribes nothing', async () => {
    const o = await owner();
    const answer = await o.c.post('/api/v1.0/payment/subscribePayment', { customerId: 'cus_mine' }, o.h);
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe('This call takes no body.');
    const stored = await server()
      .db.selectFrom('accounts')
      .select('customer_id')
      .where('id', '=', o.accountId)
      .executeTakeFirstOrThrow();
    expect(stored.customer_id).toBeNull();
    expect((await o.c.post('/api/v1.0/payment/subscribePayment', {}, o.h)).status).toBe(200);
  });

  it('adds cards: the first is the default, the list shows brand, last four and expiry', async () => {
    const o = await owner();
    const first = await o.add('4242424242424242');
    const second = await o.add('5555555555554444');
    expect(await o.list()).toEqual([
      { id: first, defaultPaymentMethod: true, card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030 } },
      {
        id: second,
        defaultPaymentMethod: false,
        card: { brand: 'mastercard', last4: '4444', exp_month: 12, exp_year: 2030 },
      },
    ]);
  });

  it('keeps exactly one default, also when the call leaves out ebs-account-id', async () => {
    const o = await owner();
    const first = await o.add();
    const second = await o.add('5555555555554444');
    const answer = await o.c.post('/api/v1.0/payment/card/default', { cardId: second });
    expect(answer.status).toBe(200);
    expect(answer.body.message).toBe(Messages.cardSetDefault);
    expect((await o.list()).map((card) => [card.id, card.defaultPaymentMethod])).toEqual([
      [first, false],
      [second, true],
    ]);
    const stranger = new Client(server().url);
    await stranger.signUp();
    const refused = await stranger.post('/api/v1.0/payment/card/default', { cardId: first });
    expect(refused.status).toBe(403);
    expect((await o.list()).find((card) => card.defaultPaymentMethod)?.id).toBe(second);
  });

  it('refuses to remove the only card and the default card, with the spec messages', async () => {
    const o = await owner();
    const only = await o.add();
    const alone = await o.post('remove', { cardId: only });
    expect([alone.status, alone.body.message]).toEqual([400, Messages.onlyCard]);
    await o.add('5555555555554444');
    const dflt = await o.post('remove', { cardId: only });
    expect([dflt.status, dflt.body.message]).toEqual([400, Messages.defaultCard]);
    expect(await o.list()).toHaveLength(2);
  });

  it('removes a card that is neither alone nor the default, and the provider forgets it', async () => {
    const o = await owner();
    await o.add();
    const extra = await o.add('5555555555554444');
    const removed = await o.post('remove', { cardId: extra });
    expect([removed.status, removed.body.message]).toEqual([200, Messages.cardRemoved]);
    expect((await o.list()).map((card) => card.id)).not.toContain(extra);
    const detached = await server()
      .db.selectFrom('processor_payment_methods')
      .select('detached_at')
      .where('last4', '=', '4444')
      .where('detached_at', 'is not', null)
      .execute();
    expect(detached.length).toBeGreaterThan(0);
  });

  it('updates the expiry, refusing a past one and a month outside 1-12', async () => {
    const o = await owner();
    const card = await o.add();
    const updated = await o.post('update', { cardId: card, expireMonth: 3, expireYear: 2029 });
    expect([updated.status, updated.body.message]).toEqual([200, Messages.cardUpdated]);
    expect((await o.list())[0]?.card).toMatchObject({ exp_month: 3, exp_year: 2029 });
    const past = await o.post('update', { cardId: card, expireMonth: 1, expireYear: 2023 });
    expect([past.status, past.body.message]).toEqual([400, Messages.cardExpiryInPast]);
    const month = await o.post('update', { cardId: card, expireMonth: 13, expireYear: 2029 });
    expect([month.status, month.body.message]).toEqual([400, 'body.expireMonth must be <= 12']);
    expect((await o.list())[0]?.card).toMatchObject({ exp_month: 3, exp_year: 2029 });
  });

  it('refuses another account’s card id on every card call', async () => {
    const mine = await owner();
    const theirs = await owner();
    const theirCard = await theirs.add();
    await theirs.add('5555555555554444');
    for (const [path, body] of [
      ['remove', { cardId: theirCard }],
      ['update', { cardId: theirCard, expireMonth: 1, expireYear: 2030 }],
      ['default', { cardId: theirCard }],
    ] as const) {
      const answer = await mine.post(path, body);
      expect([path, answer.status, answer.body.message]).toEqual([path, 404, Messages.cardNotFound]);
    }
    expect(await theirs.list()).toHaveLength(2);
  });

  it('attaches only tokens the provider confirmed for this account, once', async () => {
    const o = await owner();
    expect((await o.attach('pm_madeup')).body.message).toBe(Messages.cardUnknownToProvider);
    const other = await owner();
    const foreign = await other.confirm(await other.intent(), '4242424242424242');
    expect((await o.attach(foreign.state.payment_method)).body.message).toBe(Messages.cardUnknownToProvider);
    const confirmed = await o.confirm(await o.intent(), '4242424242424242');
    expect((await o.attach(confirmed.state.payment_method)).status).toBe(200);
    const again = await o.attach(confirmed.state.payment_method);
    expect([again.status, again.body.message]).toEqual([400, Messages.cardAlreadyAdded]);
    expect(await o.list()).toHaveLength(1);
  });

  it('declines 4000 0000 0000 0002 with the processor message and adds nothing', async () => {
    const o = await owner();
    const declined = await o.confirm(await o.intent(), '4000 0000 0000 0002');
    expect([declined.status, declined.message]).toEqual([402, ProcessorMessages.declined]);
    expect(await o.list()).toEqual([]);
  });

  it('asks 4000 0027 6000 3184 for a confirmation challenge; approving adds it, refusing does not', async () => {
    const o = await owner();
    const approve = async (approved: boolean) => {
      const setup = await o.intent();
      const first = await o.confirm(setup, '4000002760003184');
      expect(first.state).toMatchObject({ status: 'requires_action', next_action: { type: 'challenge' } });
      return processor(`/processor/v1/setup_intents/${setup.setupIntentId}/challenge`, {
        client_secret: setup.client_secret,
        approve: approved,
      });
    };
    const denied = await approve(false);
    expect([denied.status, denied.message]).toEqual([402, ProcessorMessages.authenticationFailed]);
    const approved = await approve(true);
    expect(approved.state.status).toBe('succeeded');
    expect((await o.attach(approved.state.payment_method)).status).toBe(200);
    expect(await o.list()).toHaveLength(1);
  });

  it('refuses a wrong client secret and a card with a bad number', async () => {
    const o = await owner();
    const setup = await o.intent();
    const wrong = await o.confirm({ ...setup, client_secret: `${setup.client_secret}x` }, '4242424242424242');
    expect([wrong.status, wrong.message]).toEqual([404, 'No such setup intent.']);
    const bad = await o.confirm(setup, '4242424242424241');
    expect([bad.status, bad.message]).toEqual([402, ProcessorMessages.incorrectNumber]);
  });

  it('stores no full card number anywhere', async () => {
    const o = await owner();
    await o.add('4242424242424242');
    const tables = ['processor_payment_methods', 'processor_setup_intents', 'payment_cards'];
    for (const table of tables) {
      const dump = await sql<{
        t: string;
      }>`select coalesce(json_agg(x)::text, '') as t from ${sql.table(table)} x`.execute(server().db);
      expect(dump.rows[0]?.t ?? '').not.toContain('424242424242');
    }
  });
});
