import type { TransactionList, TransactionType } from '@ebs/contract';
import { describe, expect, it } from 'vitest';
import { Client } from '../../testing/client.ts';
import { testDatabases } from '../../testing/databases.ts';
import { serverFor } from '../../testing/server.ts';
import { insertTransaction } from '../ledger/ledger.test-kit.ts';

describe.each(testDatabases)('transactions on $name', (database) => {
  const server = serverFor(database);

  /** A signed-in owner of a new account holding the given rows (type, amount, created at). */
  const accountWith = async (rows: Array<[TransactionType, string, string]>) => {
    const c = new Client(server().url);
    await c.signUp();
    const { id } = (await c.post<{ id: string }>('/api/v1.0/account', { accountName: 'ledger' })).body.data;
    for (const [type, amount, at] of rows) {
      const txId = await insertTransaction(server().db, { accountId: id, type, amount, status: 'COMPLETED' });
      await server().db.updateTable('account_transactions').set({ created_at: at }).where('id', '=', txId).execute();
    }
    const list = (query: string) => c.get<TransactionList>(`/api/v1.0/transaction?${query}`, { 'ebs-account-id': id });
    return { c, id, list };
  };

  const rows: Array<[TransactionType, string, string]> = [
    ['WELCOME_CREDIT', '10', '2026-01-01T10:00:00Z'],
    ['WITHDRAW_RESOURCE_USAGE', '-0.123456', '2026-01-02T23:59:59Z'],
    ['DEPOSIT_ONE_TIME', '25', '2026-01-03T00:00:00Z'],
    ['ADMIN_MANUAL_DEPOSIT', '100.5', '2026-01-05T12:00:00Z'],
  ];

  it('lists newest first, paged, with the total count and exact amounts', async () => {
    const { list } = await accountWith(rows);
    const all = (await list('limit=10&offset=0')).body.data;
    expect(all.totalCount).toBe(4);
    expect(all.transactions.map((t) => [t.type, t.amount])).toEqual([
      ['ADMIN_MANUAL_DEPOSIT', 100.5],
      ['DEPOSIT_ONE_TIME', 25],
      ['WITHDRAW_RESOURCE_USAGE', -0.123456],
      ['WELCOME_CREDIT', 10],
    ]);
    const page = (await list('limit=2&offset=2')).body.data;
    expect(page.totalCount).toBe(4);
    expect(page.transactions.map((t) => t.type)).toEqual(['WITHDRAW_RESOURCE_USAGE', 'WELCOME_CREDIT']);
  });

  it('filters by whole days, both ends included', async () => {
    const { list } = await accountWith(rows);
    const days = (await list('limit=10&offset=0&dateStart=2026-01-02&dateEnd=2026-01-03')).body.data;
    expect(days.transactions.map((t) => t.type)).toEqual(['DEPOSIT_ONE_TIME', 'WITHDRAW_RESOURCE_USAGE']);
    expect(days.totalCount).toBe(2);
  });

  it('filters by types given as a JSON array or separated by commas', async () => {
    const { list } = await accountWith(rows);
    const json = await list(`limit=10&offset=0&typeIn=${encodeURIComponent('["WELCOME_CREDIT","DEPOSIT_ONE_TIME"]')}`);
    expect(json.body.data.transactions.map((t) => t.type)).toEqual(['DEPOSIT_ONE_TIME', 'WELCOME_CREDIT']);
    const commas = await list('limit=10&offset=0&typeIn=ADMIN_MANUAL_DEPOSIT');
    expect(commas.body.data.totalCount).toBe(1);
  });

  it('sorts by amount when asked', async () => {
    const { list } = await accountWith(rows);
    const sorted = (await list('limit=10&offset=0&sortBy=amount&order=asc')).body.data;
    expect(sorted.transactions.map((t) => t.amount)).toEqual([-0.123456, 10, 25, 100.5]);
  });

  it.each([
    ['dateStart=2026-02-30', 'dateStart must be a date written YYYY-MM-DD'],
    ['dateStart=yesterday', 'querystring.dateStart must match pattern "^\\d{4}-\\d{2}-\\d{2}$"'],
    ['dateStart=2026-01-05&dateEnd=2026-01-01', 'dateStart must not be after dateEnd'],
    ['typeIn=REFUND', 'typeIn names an unknown transaction type: REFUND'],
    ['typeIn=%5Bnot%20json', 'typeIn must be a JSON array of transaction types'],
    ['limit=0', 'querystring.limit must be >= 1'],
    ['offset=-1', 'querystring.offset must be >= 0'],
    ['limit=ten', 'querystring.limit must be integer'],
  ])('refuses %s', async (query, message) => {
    const { list } = await accountWith([]);
    const answer = await list(
      `limit=10&offset=0&${query}`.replace('limit=10&offset=0&limit', 'limit').replace('offset=0&offset', 'offset'),
    );
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe(message);
  });

  it('shows one account’s transactions only to its members', async () => {
    const { id } = await accountWith(rows);
    const stranger = new Client(server().url);
    await stranger.signUp();
    const answer = await stranger.get('/api/v1.0/transaction?limit=10&offset=0', { 'ebs-account-id': id });
    expect(answer.status).toBe(403);
  });

  it('lists the transaction types with their descriptions', async () => {
    const c = new Client(server().url);
    await c.signUp();
    const types = (await c.get<Array<{ type: string; description: string }>>('/api/v1.0/transaction/type')).body.data;
    expect(types).toEqual([
      { type: 'DEPOSIT_ONE_TIME', description: 'One-time deposit' },
      { type: 'DEPOSIT_AUTO', description: 'Auto deposit' },
      { type: 'WITHDRAW_RESOURCE_USAGE', description: 'Resource usage withdrawal' },
      { type: 'WELCOME_CREDIT', description: 'Welcome credit' },
      { type: 'ADMIN_MANUAL_DEPOSIT', description: 'Manual deposit' },
      { type: 'REFUND_CARD_DEPOSIT', description: 'Card deposit refund' },
      { type: 'DISPUTE_CARD_DEPOSIT', description: 'Card deposit disputed' },
      { type: 'DISPUTE_REINSTATED', description: 'Disputed deposit reinstated' },
    ]);
  });
});
