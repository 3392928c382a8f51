import { Messages, type SetupIntent, type TransactionList } from '@ebs/contract';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { Client } from '../../testing/client.ts';
import { crashTarget, crashTargetNames, sameSession } from '../../testing/crash-kit.ts';
import { startFakeStripe } from '../../testing/fake-stripe.ts';
import { ledgerViolations } from '../../testing/ledger-invariants.ts';
import { until } from '../../testing/poll.ts';
import { reportFigures } from '../../testing/report.ts';

const stripe = await startFakeStripe();
afterAll(() => stripe.close());
const STRIPE_ENV = {
  CARD_PROVIDER: 'stripe',
  STRIPE_SECRET_KEY: stripe.secretKey,
  STRIPE_PUBLISHABLE_KEY: 'pk_test_51ConsoleTestsPublishableKey',
  STRIPE_API_BASE: stripe.url,
};
const CHARGES = '/v1/payment_intents';

/** A signed-up owner of a new account with a card confirmed at Stripe, and a deposit call. */
async function owner(baseUrl: string) {
  const c = new Client(baseUrl);
  await c.signUp();
  const accountId = (await c.post<{ id: string }>('/api/v1.0/account', { accountName: 'crash' })).body.data.id;
  const h = { 'ebs-account-id': accountId };
  const setup = (await c.get<SetupIntent>('/api/v1.0/payment/stripe', h)).body.data;
  const { paymentMethod } = stripe.confirmSetupIntent(setup.setupIntentId, { number: '4242424242424242' });
  const cardId = (await c.post<{ cardId: string }>('/api/v1.0/payment/card', { cardToken: paymentMethod }, h)).body.data
    .cardId;
  return {
    c,
    /** The same session on the restarted server. */
    moveTo(url: string) {
      this.c = sameSession(this.c, url);
    },
    accountId,
    h,
    key: (name: string) => `deposit:${accountId}:${name}`,
    deposit(amount: number, key: string) {
      return this.c.post<{ transactionId: string }>(
        '/api/v1.0/payment/card/deposit',
        { cardId, depositAmount: amount },
        { ...h, 'idempotency-key': key },
      );
    },
  };
}

const paymentIntentsFor = (key: string) =>
  [...stripe.paymentIntents.values()].filter((i) => i.metadata.ebs_idempotency_key === key);

describe.each(crashTargetNames)('a deposit whose server is killed while Stripe charges the card (%s)', (name) => {
  it('is charged once and posted once after the restart: by the card holder’s retry, or by the start’s reconcile', {
    timeout: 90_000,
  }, async () => {
    const target = await crashTarget(name);
    try {
      const first = await target.start(STRIPE_ENV);
      const retrying = await owner(first.url);
      const waiting = await owner(first.url);
      expect((await retrying.deposit(10, 'before-the-crash')).status).toBe(200);

      // Stripe makes both charges and holds their answers; the server dies waiting for them.
      stripe.holdAnswers(CHARGES, 2);
      const inFlight = [retrying.deposit(25, 'in-flight'), waiting.deposit(40, 'in-flight')].map((p) =>
        p.catch((error: unknown) => error),
      );
      await until('both charges made at Stripe', async () => stripe.held() === 2);
      await first.crash();
      for (const answer of await Promise.all(inFlight)) expect(answer).toBeInstanceOf(Error);
      stripe.releaseHeld();
      expect(paymentIntentsFor(retrying.key('in-flight'))).toHaveLength(1);
      expect(paymentIntentsFor(waiting.key('in-flight'))).toHaveLength(1);

      // Both rows are left PENDING. Stripe's search lags by up to a minute, so the start settles only
      // rows pending longer: the one nobody retries is aged as a restart a minute later finds it.
      const pending = await target.inspect(async (db) => {
        const rows = await db
          .selectFrom('account_transactions')
          .select(['idempotency_key'])
          .where('status', '=', 'PENDING')
          .execute();
        await db
          .updateTable('account_transactions')
          .set({ created_at: sql`now() - interval '2 minutes'` })
          .where('idempotency_key', '=', waiting.key('in-flight'))
          .execute();
        return rows.map((r) => r.idempotency_key).sort();
      });
      expect(pending).toEqual([retrying.key('in-flight'), waiting.key('in-flight')].sort());

      const second = await target.start(STRIPE_ENV);
      for (const who of [retrying, waiting]) who.moveTo(second.url);
      const retried = await retrying.deposit(25, 'in-flight');
      expect([retried.status, retried.body.message]).toEqual([200, Messages.paymentProcessing]);
      const replayed = stripe.requests.filter(
        (r) => r.path === CHARGES && r.headers['idempotency-key'] === retrying.key('in-flight'),
      );
      expect(replayed).toHaveLength(2);

      const history = async (who: typeof retrying) =>
        (await who.c.get<TransactionList>('/api/v1.0/transaction?limit=10&offset=0', who.h)).body.data.transactions;
      const balance = async (who: typeof retrying) =>
        (await who.c.get<{ balance: number }>('/api/v1.0/account/details', who.h)).body.data.balance;
      expect((await history(retrying)).map((t) => [t.type, t.amount, t.status])).toEqual([
        ['DEPOSIT_ONE_TIME', 25, 'COMPLETED'],
        ['DEPOSIT_ONE_TIME', 10, 'COMPLETED'],
      ]);
      expect((await history(waiting)).map((t) => [t.type, t.amount, t.status])).toEqual([
        ['DEPOSIT_ONE_TIME', 40, 'COMPLETED'],
      ]);
      expect(await balance(retrying)).toBe(35);
      expect(await balance(waiting)).toBe(40);
      expect(await second.stop()).toBe(0);

      // The ledger itself: one row per key, and every money rule (those about the local processor's
      // charges aside: Stripe holds these).
      const ledger = await target.inspect(async (db) => ({
        keys: await db
          .selectFrom('account_transactions')
          .select('idempotency_key')
          .where('account_id', 'in', [retrying.accountId, waiting.accountId])
          .execute(),
        violations: (await ledgerViolations(db, { settled: true })).filter((v) => !/charge/.test(v.rule)),
      }));
      expect(ledger.violations).toEqual([]);
      expect(ledger.keys.map((r) => r.idempotency_key).sort()).toEqual(
        [retrying.key('before-the-crash'), retrying.key('in-flight'), waiting.key('in-flight')].sort(),
      );
      reportFigures('crashes', {
        scenario: 'deposit',
        database: name,
        kills: 1,
        deposits: 2,
        charges:
          paymentIntentsFor(retrying.key('in-flight')).length + paymentIntentsFor(waiting.key('in-flight')).length,
        duplicates: 0,
        lost: 0,
      });
    } finally {
      await target.drop();
    }
  });
});
