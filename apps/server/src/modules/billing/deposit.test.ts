import { Messages, type TransactionList } from '@ebs/contract';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { ownerWithCard as addOwnerWithCard } from '../../testing/cards.ts';
import type { Client } from '../../testing/client.ts';
import { testDatabases } from '../../testing/databases.ts';
import { serverFor } from '../../testing/server.ts';
import { claimDeposit, settleTransaction } from '../ledger/ledger.test-kit.ts';

/** Twenty requests at once on one account: far past the default PAYMENT_RATE_LIMIT_PER_MINUTE, tested apart. */
const MANY_PAYMENTS = { PAYMENT_RATE_LIMIT_PER_MINUTE: '100' };

describe.each(testDatabases)('deposits on $name', (database) => {
  const server = serverFor(database, MANY_PAYMENTS);

  /** An owner whose account holds one default card with the given number. */
  const ownerWithCard = async (number = '4242424242424242') => {
    const { c, accountId, h, cardId } = await addOwnerWithCard(server().url, number);
    const deposit = (body: Record<string, unknown>, key?: string) =>
      c.post<{ transactionId: string; receiptUrl: string }>('/api/v1.0/payment/card/deposit', body, {
        ...h,
        ...(key ? { 'idempotency-key': key } : {}),
      });
    return { c, accountId, h, cardId, deposit };
  };

  /** The balance shown, checked against the ledger: it always equals the sum of completed rows. */
  const balance = async (c: Client, accountId: string) => {
    const shown = (await c.get<{ balance: number }>('/api/v1.0/account/details', { 'ebs-account-id': accountId })).body
      .data.balance;
    const sum = await sql<{ s: string }>`select coalesce(sum(amount), 0)::text as s from account_transactions
      where account_id = ${accountId} and status = 'COMPLETED'`.execute(server().db);
    expect(shown).toBe(Number(sum.rows[0]?.s));
    return shown;
  };
  const charges = async (accountId: string) =>
    (
      await sql<{ n: string }>`select count(*)::text as n from processor_charges c
        join accounts a on a.customer_id = c.customer_id where a.id = ${accountId}`.execute(server().db)
    ).rows[0]?.n;

  it('deposits 25 USD: the message, a receipt, the history and the balance', async () => {
    const o = await ownerWithCard();
    const answer = await o.deposit({ cardId: o.cardId, depositAmount: 25 }, 'first-deposit-1');
    expect(answer.status).toBe(200);
    expect(answer.body.message).toBe('Your payment is being processed. Thanks for using the product!');
    const receipt = await fetch(answer.body.data.receiptUrl.replace(/^http:\/\/localhost:8080/, server().url));
    expect(receipt.status).toBe(200);
    expect(await receipt.text()).toContain('$25.00');
    const history = (await o.c.get<TransactionList>('/api/v1.0/transaction?limit=10&offset=0', o.h)).body.data;
    expect(history.transactions).toMatchObject([
      {
        id: answer.body.data.transactionId,
        type: 'DEPOSIT_ONE_TIME',
        amount: 25,
        metadata: { receiptUrl: answer.body.data.receiptUrl },
      },
    ]);
    expect(await balance(o.c, o.accountId)).toBe(25);
  });

  it.each<[Record<string, unknown>, string]>([
    [{}, "body must have property 'depositAmount'"],
    [{ depositAmount: 0 }, 'Deposit amount is required.'],
    [{ depositAmount: 'ten' }, 'body.depositAmount must be number'],
    [{ depositAmount: -5 }, 'The minimum deposit is 1 USD.'],
    [{ depositAmount: 2.5 }, 'Deposit amount must be a whole number of USD.'],
    [{ depositAmount: 100000 }, 'The maximum deposit is 99999 USD.'],
  ])('refuses %j, charging and posting nothing', async (body, message) => {
    const o = await ownerWithCard();
    const answer = await o.deposit({ cardId: o.cardId, ...body });
    expect([answer.status, answer.body.message]).toEqual([400, message]);
    expect(await charges(o.accountId)).toBe('0');
    expect(await balance(o.c, o.accountId)).toBe(0);
  });

  it('follows the DEPOSIT setting’s minimum', async () => {
    const o = await ownerWithCard();
    await server()
      .db.updateTable('settings')
      .set({ value: JSON.stringify({ minAmount: 5 }) })
      .where('name', '=', 'DEPOSIT')
      .execute();
    try {
      const answer = await o.deposit({ cardId: o.cardId, depositAmount: 4 });
      expect([answer.status, answer.body.message]).toEqual([400, 'The minimum deposit is 5 USD.']);
    } finally {
      await server()
        .db.updateTable('settings')
        .set({ value: JSON.stringify({ minAmount: 1 }) })
        .where('name', '=', 'DEPOSIT')
        .execute();
    }
  });

  it('refuses another account’s card and a card that is not the default', async () => {
    const mine = await ownerWithCard();
    const theirs = await ownerWithCard();
    const foreign = await mine.deposit({ cardId: theirs.cardId, depositAmount: 10 });
    expect([foreign.status, foreign.body.message]).toEqual([404, Messages.cardNotFound]);
    await server().db.updateTable('payment_cards').set({ is_default: false }).where('id', '=', mine.cardId).execute();
    const noDefault = await mine.deposit({ cardId: mine.cardId, depositAmount: 10 });
    expect([noDefault.status, noDefault.body.message]).toEqual([400, 'Please set one payment card as default.']);
    expect(await charges(mine.accountId)).toBe('0');
  });

  it('shows the processor’s message for a failed charge and posts nothing', async () => {
    const o = await ownerWithCard('4000000000009995');
    const answer = await o.deposit({ cardId: o.cardId, depositAmount: 30 });
    expect([answer.status, answer.body.message]).toEqual([402, 'Your card has insufficient funds.']);
    expect((await o.c.get<TransactionList>('/api/v1.0/transaction?limit=10&offset=0', o.h)).body.data.totalCount).toBe(
      0,
    );
    expect(await balance(o.c, o.accountId)).toBe(0);
  });

  it('charges once and posts once for twenty parallel requests with one idempotency key', async () => {
    const o = await ownerWithCard();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => o.deposit({ cardId: o.cardId, depositAmount: 7 }, 'double-click-key')),
    );
    expect(answers.filter((a) => a.status !== 200).map((a) => [a.status, a.body.message])).toEqual([]);
    expect(new Set(answers.map((a) => a.body.data.transactionId)).size).toBe(1);
    expect(await charges(o.accountId)).toBe('1');
    expect(await balance(o.c, o.accountId)).toBe(7);
  });

  it('charges twenty times for twenty requests with different keys', async () => {
    const o = await ownerWithCard();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => o.deposit({ cardId: o.cardId, depositAmount: 3 }, `distinct-key-${i}`)),
    );
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(await charges(o.accountId)).toBe('20');
    expect(await balance(o.c, o.accountId)).toBe(60);
  });

  it('posts a deposit marked failed when its charge turns out to have succeeded', async () => {
    const o = await ownerWithCard();
    const row = await claimDeposit(server().db, {
      accountId: o.accountId,
      type: 'DEPOSIT_ONE_TIME',
      amount: '9',
      status: 'PENDING',
      idempotencyKey: `deposit:${o.accountId}:late`,
      metadata: { cardId: o.cardId },
    });
    await settleTransaction(server().db, row.id, 'FAILED', { failure: 'The payment was not completed.' });
    expect(await balance(o.c, o.accountId)).toBe(0);
    await settleTransaction(server().db, row.id, 'COMPLETED', { receiptUrl: 'x' });
    expect(await balance(o.c, o.accountId)).toBe(9);
    await settleTransaction(server().db, row.id, 'FAILED', { failure: 'late' });
    expect(await balance(o.c, o.accountId)).toBe(9);
  });

  it('refuses a key used again for another amount', async () => {
    const o = await ownerWithCard();
    await o.deposit({ cardId: o.cardId, depositAmount: 5 }, 'reused-key-1');
    const again = await o.deposit({ cardId: o.cardId, depositAmount: 6 }, 'reused-key-1');
    expect([again.status, again.body.message]).toEqual([400, Messages.idempotencyReused]);
    expect(await balance(o.c, o.accountId)).toBe(5);
  });

  it('settles once, on restart, a deposit interrupted between the charge and the ledger write', async () => {
    const o = await ownerWithCard();
    const key = `deposit:${o.accountId}:crashed-request`;
    // The state a crash leaves: the PENDING row written, the card charged, the row never settled.
    const row = await claimDeposit(server().db, {
      accountId: o.accountId,
      type: 'DEPOSIT_ONE_TIME',
      amount: '40',
      status: 'PENDING',
      idempotencyKey: key,
      metadata: { cardId: o.cardId },
    });
    const customerId = (
      await server()
        .db.selectFrom('accounts')
        .select('customer_id')
        .where('id', '=', o.accountId)
        .executeTakeFirstOrThrow()
    ).customer_id as string;
    const token = (
      await server()
        .db.selectFrom('payment_cards')
        .select('provider_token')
        .where('id', '=', o.cardId)
        .executeTakeFirstOrThrow()
    ).provider_token;
    await server().deps.cardProvider.charge({
      customerId,
      token,
      amount: '40',
      idempotencyKey: key,
      description: 'crash',
    });
    await sql`update account_transactions set created_at = now() - interval '2 minutes' where id = ${row.id}`.execute(
      server().db,
    );
    expect(await balance(o.c, o.accountId)).toBe(0);

    expect(await server().deps.deposits.reconcile()).toBeGreaterThanOrEqual(1);
    expect(await balance(o.c, o.accountId)).toBe(40);
    await server().deps.deposits.reconcile();
    expect(await balance(o.c, o.accountId)).toBe(40);
    expect(await charges(o.accountId)).toBe('1');
  });
});

describe.each(testDatabases)('receipts on $name', (database) => {
  const server = serverFor(database);

  it('downloads a PDF receipt of a completed deposit and a statement, only for the account’s members', async () => {
    const o = await addOwnerWithCard(server().url);
    const paid = await o.c.post<{ transactionId: string }>(
      '/api/v1.0/payment/card/deposit',
      { cardId: o.cardId, depositAmount: 12 },
      { ...o.h, 'idempotency-key': 'receipt-test-1' },
    );
    const download = (id: string, c = o.c, h = o.h) =>
      c.get<{ fileName: string; contentType: string; pdf: { type: string; data: number[] } }>(
        `/api/v1.0/payment/receipt/download?transactionId=${id}`,
        h,
      );
    const answer = await download(paid.body.data.transactionId);
    expect(answer.status).toBe(200);
    expect(answer.body.data.fileName).toMatch(/^receipt-[0-9a-f]{8}\.pdf$/);
    expect(answer.body.data.contentType).toBe('application/pdf');
    const bytes = Buffer.from(answer.body.data.pdf.data);
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(bytes.length).toBeGreaterThan(800);

    const missing = await download('00000000-0000-4000-8000-000000000000');
    expect([missing.status, missing.body.message]).toEqual([404, 'Transaction not found.']);
    const malformed = await download('nope');
    expect(malformed.status).toBe(400);

    const today = new Date().toISOString().slice(0, 10);
    const statement = await o.c.get<{ fileName: string; pdf: { data: number[] } }>(
      `/api/v1.0/transaction/statement?dateStart=${today}&dateEnd=${today}`,
      o.h,
    );
    expect(statement.status).toBe(200);
    expect(statement.body.data.fileName).toBe(`statement-${today}-${today}.pdf`);
    expect(Buffer.from(statement.body.data.pdf.data).subarray(0, 5).toString()).toBe('%PDF-');
    const reversed = await o.c.get(`/api/v1.0/transaction/statement?dateStart=${today}&dateEnd=2020-01-01`, o.h);
    expect([reversed.status, reversed.body.message]).toEqual([400, 'dateStart must not be after dateEnd']);
    const noPeriod = await o.c.get('/api/v1.0/transaction/statement', o.h);
    expect(noPeriod.status).toBe(400);

    const stranger = await addOwnerWithCard(server().url);
    const foreign = await download(paid.body.data.transactionId, stranger.c, stranger.h);
    expect([foreign.status, foreign.body.message]).toEqual([404, 'Transaction not found.']);
  });
});
