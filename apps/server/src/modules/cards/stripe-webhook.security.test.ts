import type { SetupIntent } from '@ebs/contract';
import { sql } from 'kysely';
import Stripe from 'stripe';
import { afterAll, describe, expect, it } from 'vitest';
import { ownerView } from '../../testing/cards.ts';
import { Client, uniqueEmail } from '../../testing/client.ts';
import { testDatabases } from '../../testing/databases.ts';
import { startFakeStripe } from '../../testing/fake-stripe.ts';
import { ledgerViolations } from '../../testing/ledger-invariants.ts';
import { reportFigures } from '../../testing/report.ts';
import { serverFor } from '../../testing/server.ts';
import { deliver, dispute, refundedCharge, stripeEvent, testWebhookSecret } from '../../testing/stripe-events.ts';
import { grantAmbassador } from '../ambassador/ambassador.test-kit.ts';

// Stripe's stand-in listens before the servers start: their configuration names its address.
const stripe = await startFakeStripe();
afterAll(() => stripe.close());
const SECRET = testWebhookSecret();

describe.each(testDatabases)('Stripe refund and dispute events on $name', (database) => {
  const server = serverFor(database, {
    CARD_PROVIDER: 'stripe',
    STRIPE_SECRET_KEY: stripe.secretKey,
    STRIPE_PUBLISHABLE_KEY: 'pk_test_51ConsoleTestsPublishableKey',
    STRIPE_API_BASE: stripe.url,
    STRIPE_WEBHOOK_SECRET: SECRET,
  });
  const send = (body: string, secret = SECRET, timestamp?: number) => deliver(server().url, body, secret, timestamp);

  /** A signed-up owner (referred by `referralCode`) of an account that deposited `amount` USD with a Stripe card. */
  const paidAccount = async (amount: number, referralCode?: string) => {
    const c = new Client(server().url);
    const email = uniqueEmail();
    await c.post('/auth/sign-up', {
      email,
      password: 'correct horse 1',
      givenName: 'Pay',
      familyName: 'Er',
      ...(referralCode ? { referralCode } : {}),
    });
    c.idToken = (
      await c.post<{ idToken: string }>('/auth/confirm-sign-up', { email, code: await c.mailedCode(email) })
    ).body.data.idToken;
    const accountId = (await c.post<{ id: string }>('/api/v1.0/account', { accountName: 'disputes' })).body.data.id;
    const h = { 'ebs-account-id': accountId };
    const setup = (await c.get<SetupIntent>('/api/v1.0/payment/stripe', h)).body.data;
    const { paymentMethod } = stripe.confirmSetupIntent(setup.setupIntentId, { number: '4242424242424242' });
    const cardId = (await c.post<{ cardId: string }>('/api/v1.0/payment/card', { cardToken: paymentMethod }, h)).body
      .data.cardId;
    const key = `refunds-${accountId.slice(0, 8)}`;
    const paid = await c.post(
      '/api/v1.0/payment/card/deposit',
      { cardId, depositAmount: amount },
      {
        ...h,
        'idempotency-key': key,
      },
    );
    expect(paid.status).toBe(200);
    const intent = [...stripe.paymentIntents.values()].find(
      (i) => i.metadata.ebs_idempotency_key === `deposit:${accountId}:${key}`,
    ) as Stripe.PaymentIntent;
    const seen = () => ownerView(c, accountId);
    return { accountId, intent, seen };
  };

  // The rules about charges read the local processor's; Stripe keeps these charges.
  const violations = async () =>
    (await ledgerViolations(server().db, { settled: true })).filter((v) => !/charge/.test(v.rule));

  it('refuses a Stripe event that is unsigned, forged, signed with another secret or replayed too late, and changes nothing', async () => {
    const { intent, seen } = await paidAccount(40);
    const before = await seen();
    const body = stripeEvent('charge.refunded', refundedCharge(intent, 4000));
    const forged = body.replace('"amount_refunded":4000', '"amount_refunded":4001');
    const signed = Stripe.webhooks.generateTestHeaderString({ payload: body, secret: SECRET });
    const attempts = [
      await fetch(`${server().url}/api/v1.0/payment/stripe/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      }).then(async (r) => ({ status: r.status, message: ((await r.json()) as { message: string }).message })),
      await fetch(`${server().url}/api/v1.0/payment/stripe/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': signed },
        body: forged,
      }).then(async (r) => ({ status: r.status, message: ((await r.json()) as { message: string }).message })),
      await send(body, testWebhookSecret()),
      await send(body, SECRET, Math.floor(Date.now() / 1000) - 301),
      await send(body, SECRET, Math.floor(Date.now() / 1000) + 3600),
    ];
    expect(attempts.map((a) => a.status)).toEqual([400, 400, 400, 400, 400]);
    expect(attempts.slice(1).map((a) => a.message)).toEqual(
      Array(4).fill('The Stripe-Signature header does not match this body, or is too old.'),
    );
    expect(await seen()).toEqual(before);
    reportFigures('Stripe events are taken only when signed', {
      database: database.name,
      refused: attempts.filter((a) => a.status === 400).length,
      rowsChanged: 0,
    });
  });

  it('a refund at Stripe takes only the refunded part back, once, however often and in whatever order its events arrive', async () => {
    const { intent, seen } = await paidAccount(100);
    const first = stripeEvent('charge.refunded', refundedCharge(intent, 3000));
    const deliveries = [
      first,
      first, // Stripe's redelivery of the same event
      stripeEvent('charge.refunded', refundedCharge(intent, 7000)),
      stripeEvent('charge.refunded', refundedCharge(intent, 3000)), // a late event of the older total
      stripeEvent('charge.refunded', refundedCharge(intent, 7000)), // the same total, another event
    ];
    const answers = [];
    for (const body of deliveries) answers.push((await send(body)).status);
    expect(answers).toEqual([200, 200, 200, 200, 200]);
    expect(await seen()).toEqual({
      balance: 30,
      status: 'ACTIVE',
      rows: ['DEPOSIT_ONE_TIME 100', 'REFUND_CARD_DEPOSIT -30', 'REFUND_CARD_DEPOSIT -40'],
    });

    // The rest at once (Stripe refunds in full): the credit is gone and the account suspended.
    await Promise.all([1, 2, 3].map(() => send(stripeEvent('charge.refunded', refundedCharge(intent, 10000)))));
    expect(await seen()).toMatchObject({ balance: 0, status: 'SUSPENDED' });
    expect((await seen()).rows.filter((r) => r.startsWith('REFUND'))).toEqual([
      'REFUND_CARD_DEPOSIT -30',
      'REFUND_CARD_DEPOSIT -40',
      'REFUND_CARD_DEPOSIT -30',
    ]);
    expect(await violations()).toEqual([]);
    reportFigures('a Stripe refund reverses a deposit once', {
      database: database.name,
      events: deliveries.length + 3,
      ledgerRows: (await seen()).rows.length - 1,
      reversedUsd: 100 - (await seen()).balance,
      violations: 0,
    });
  });

  it('a dispute takes the disputed amount and suspends the account; a won dispute gives it back once, even when the win arrives first', async () => {
    const { intent, seen } = await paidAccount(60);
    const opened = stripeEvent('charge.dispute.created', dispute(intent, 'du_first', 6000, 'needs_response'));
    await send(opened);
    await send(opened);
    await send(stripeEvent('charge.dispute.funds_withdrawn', dispute(intent, 'du_first', 6000, 'needs_response')));
    expect(await seen()).toEqual({
      balance: 0,
      status: 'SUSPENDED',
      rows: ['DEPOSIT_ONE_TIME 60', 'DISPUTE_CARD_DEPOSIT -60'],
    });
    await send(stripeEvent('charge.dispute.closed', dispute(intent, 'du_first', 6000, 'won')));
    await send(stripeEvent('charge.dispute.funds_reinstated', dispute(intent, 'du_first', 6000, 'won')));
    expect(await seen()).toMatchObject({ balance: 60, status: 'ACTIVE' });

    // Out of order: the second dispute's win is delivered before its opening.
    await send(stripeEvent('charge.dispute.closed', dispute(intent, 'du_second', 2500, 'won')));
    await send(stripeEvent('charge.dispute.created', dispute(intent, 'du_second', 2500, 'needs_response')));
    // A lost dispute keeps what it took.
    await send(stripeEvent('charge.dispute.created', dispute(intent, 'du_third', 1000, 'needs_response')));
    await send(stripeEvent('charge.dispute.closed', dispute(intent, 'du_third', 1000, 'lost')));
    const after = await seen();
    expect(after).toMatchObject({ balance: 50, status: 'ACTIVE' });
    // The second dispute's two rows are written at one instant: their order in the history is not fixed.
    expect(after.rows.slice(3).sort()).toEqual(
      ['DISPUTE_CARD_DEPOSIT -25', 'DISPUTE_REINSTATED 25', 'DISPUTE_CARD_DEPOSIT -10'].sort(),
    );
    expect(after.rows.slice(0, 3)).toEqual([
      'DEPOSIT_ONE_TIME 60',
      'DISPUTE_CARD_DEPOSIT -60',
      'DISPUTE_REINSTATED 60',
    ]);
    expect(await violations()).toEqual([]);
    reportFigures('a Stripe dispute reverses a deposit once and a won one gives it back once', {
      database: database.name,
      events: 9,
      ledgerRows: after.rows.length - 1,
      violations: 0,
    });
  });

  it("a refund takes back the ambassador's reward in proportion, and a won dispute gives its share back", async () => {
    const ambassador = new Client(server().url);
    const { email } = await ambassador.signUp();
    const granted = await grantAmbassador(server().db, email, '0.1');
    const { intent, seen } = await paidAccount(30, granted?.code);
    const rewards = async () =>
      (
        await sql<{ total: string }>`select coalesce(sum(amount), 0)::text as total from ambassador_rewards
          where ambassador_user_id = (select id from users where email = ${email})`.execute(server().db)
      ).rows[0]?.total;
    expect(Number(await rewards())).toBe(3);
    await send(stripeEvent('charge.refunded', refundedCharge(intent, 1000)));
    expect(Number(await rewards())).toBe(2);
    await send(stripeEvent('charge.dispute.created', dispute(intent, 'du_reward', 2000, 'needs_response')));
    expect(Number(await rewards())).toBe(0);
    await send(stripeEvent('charge.dispute.closed', dispute(intent, 'du_reward', 2000, 'won')));
    expect(Number(await rewards())).toBe(2);
    expect((await seen()).balance).toBe(20);
    expect(await violations()).toEqual([]);
  });

  it('an inquiry followed by a refund and a closed inquiry takes back exactly the refund', async () => {
    const { intent, seen } = await paidAccount(100);
    // An inquiry withdraws no funds; the merchant may still refund during it.
    await send(stripeEvent('charge.dispute.created', dispute(intent, 'du_inquiry', 10000, 'warning_needs_response')));
    await send(stripeEvent('charge.dispute.updated', dispute(intent, 'du_inquiry', 10000, 'warning_under_review')));
    await send(stripeEvent('charge.refunded', refundedCharge(intent, 3000)));
    await send(stripeEvent('charge.dispute.closed', dispute(intent, 'du_inquiry', 10000, 'warning_closed')));
    const after = await seen();
    expect(after).toEqual({
      balance: 70,
      status: 'ACTIVE',
      rows: ['DEPOSIT_ONE_TIME 100', 'REFUND_CARD_DEPOSIT -30'],
    });
    expect(await violations()).toEqual([]);
    reportFigures('an inquiry moves no money and a refund during it is taken', {
      database: database.name,
      depositedUsd: 100,
      refundedUsd: 30,
      creditUsd: after.balance,
      violations: 0,
    });
  });

  it('a refund during a dispute is kept when the dispute is won: the credit ends at deposit − refund', async () => {
    const { intent, seen } = await paidAccount(100);
    await send(stripeEvent('charge.dispute.created', dispute(intent, 'du_refunded', 10000, 'needs_response')));
    expect(await seen()).toMatchObject({ balance: 0, status: 'SUSPENDED' });
    await send(stripeEvent('charge.refunded', refundedCharge(intent, 3000)));
    expect((await seen()).balance).toBe(0);
    expect(await violations()).toEqual([]);
    await send(stripeEvent('charge.dispute.closed', dispute(intent, 'du_refunded', 10000, 'won')));
    await send(stripeEvent('charge.dispute.funds_reinstated', dispute(intent, 'du_refunded', 10000, 'won')));
    const won = await seen();
    expect(won).toMatchObject({ balance: 70, status: 'ACTIVE' });

    // A second dispute of all that is left, lost, and a late refund of the rest: the credit stops at zero.
    await send(stripeEvent('charge.dispute.funds_withdrawn', dispute(intent, 'du_lost', 7000, 'needs_response')));
    await send(stripeEvent('charge.refunded', refundedCharge(intent, 10000)));
    await send(stripeEvent('charge.dispute.closed', dispute(intent, 'du_lost', 7000, 'lost')));
    expect(await seen()).toMatchObject({ balance: 0, status: 'SUSPENDED' });
    expect(await violations()).toEqual([]);
    reportFigures('a refund during a dispute is never lost', {
      database: database.name,
      depositedUsd: 100,
      refundedUsd: 30,
      creditAfterWinUsd: won.balance,
      creditAfterLossUsd: (await seen()).balance,
      violations: 0,
    });
  });

  it('acknowledges events about unknown charges and of types it does not act on, changing nothing', async () => {
    const { intent, seen } = await paidAccount(20);
    const before = await seen();
    const stranger = {
      ...intent,
      id: 'pi_unknown000000000000000',
      latest_charge: 'ch_unknown',
    } as Stripe.PaymentIntent;
    const answers = [
      await send(stripeEvent('charge.refunded', refundedCharge(stranger, 500))),
      await send(stripeEvent('charge.dispute.created', dispute(stranger, 'du_unknown', 500, 'needs_response'))),
      await send(stripeEvent('customer.created', { id: 'cus_x', object: 'customer' })),
      await send(stripeEvent('charge.dispute.updated', dispute(intent, 'du_update', 500, 'under_review'))),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(await seen()).toEqual(before);
  });
});
