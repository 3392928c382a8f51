import { type AccountList, type AccountSummary, Messages, type UserInfo } from '@ebs/contract';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { addCard as addCardTo } from '../../testing/cards.ts';
import { Client } from '../../testing/client.ts';
import { testDatabases } from '../../testing/databases.ts';
import { serverFor } from '../../testing/server.ts';
import { saveSetting } from '../settings/settings.test-kit.ts';

describe.each(testDatabases)('the account creation wizard on $name', (database) => {
  const server = serverFor(database);
  const db = () => server().db;

  /** A signed-in user walking the wizard as the console does. */
  const user = async () => {
    const c = new Client(server().url);
    const { userId } = await c.signUp();
    const none = { 'ebs-account-id': '' };
    const draft = async () => {
      const answer = await c.post<AccountSummary>('/api/v1.0/account', { accountName: 'ACCOUNT_CREATION' }, none);
      expect(answer.status).toBe(200);
      return answer.body.data.id;
    };
    const addCard = (accountId: string, number?: string) => addCardTo(c, accountId, number);
    const finish = (body: Record<string, unknown>, headers: Record<string, string> = none) =>
      c.post<AccountSummary>('/api/v1.0/account/finishCreateAccountProcess', body, headers);
    const list = async () => (await c.get<AccountList>('/api/v1.0/account?limit=100&offset=0', none)).body.data;
    return { c, userId, draft, addCard, finish, list };
  };
  const ledger = (accountId: string) =>
    db()
      .selectFrom('account_transactions')
      .select(['type', sql<string>`amount::text`.as('amount')])
      .where('account_id', '=', accountId)
      .execute();
  const row = (accountId: string) =>
    db()
      .selectFrom('accounts')
      .select(['name', 'is_draft', 'customer_id'])
      .where('id', '=', accountId)
      .executeTakeFirst();

  it('keeps one hidden draft per user, made with its provider customer', async () => {
    const u = await user();
    const id = await u.draft();
    expect(await u.draft()).toBe(id);
    expect(await row(id)).toMatchObject({ name: 'ACCOUNT_CREATION', is_draft: true, customer_id: expect.any(String) });
    expect(await u.list()).toMatchObject({ total: 0, accounts: [] });
  });

  it('finishes with a card and the welcome credit: named, listed, credited once, ACTIVE', async () => {
    const u = await user();
    const id = await u.draft();
    const cardId = await u.addCard(id);
    const body = { accountId: id, accountName: 'Main net', redeemWelcomeCredit: true, cardId };
    const answer = await u.finish(body);
    expect(answer.status).toBe(200);
    expect(answer.body.message).toBe('Main net has been created.');
    expect(answer.body.data).toMatchObject({ id, name: 'Main net', roleName: 'OWNER', status: 'ACTIVE' });
    expect(await ledger(id)).toEqual([{ type: 'WELCOME_CREDIT', amount: '10.000000' }]);
    expect((await u.c.get<UserInfo>('/api/v1.0/user')).body.data.bonusRedemption.welcomeCredit).toBe(true);
    expect((await u.list()).accounts.map((a) => a.name)).toEqual(['Main net']);

    // A retried finish answers the same account, with no second credit and no second account.
    const again = await u.finish(body);
    expect(again.status).toBe(200);
    expect(again.body.data.id).toBe(id);
    expect(await ledger(id)).toHaveLength(1);
    expect((await u.list()).total).toBe(1);
    // The next wizard gets a new draft.
    expect(await u.draft()).not.toBe(id);
  });

  it('finishes once when twenty finish steps race', async () => {
    const u = await user();
    const id = await u.draft();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => u.finish({ accountId: id, accountName: 'Racing', redeemWelcomeCredit: true })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(await ledger(id)).toHaveLength(1);
    expect((await u.list()).total).toBe(1);
  });

  it('finishes with Skip: no card, no credit asked, suspended until credit arrives', async () => {
    const u = await user();
    const id = await u.draft();
    const answer = await u.finish({ accountId: id, accountName: 'Skipped', redeemWelcomeCredit: false, cardId: null });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ name: 'Skipped', status: 'SUSPENDED' });
    expect(await ledger(id)).toEqual([]);
  });

  it('takes the draft from ebs-account-id when the body leaves accountId out', async () => {
    const u = await user();
    const id = await u.draft();
    const answer = await u.finish({ accountName: 'By header' }, { 'ebs-account-id': id });
    expect(answer.status).toBe(200);
    expect(answer.body.data.id).toBe(id);
  });

  it('requires a card when ADD_PAYMENT_CARD is mandatory', async () => {
    const u = await user();
    const id = await u.draft();
    await saveSetting(db(), 'ADD_PAYMENT_CARD', { mandatory: true });
    try {
      const refused = await u.finish({ accountId: id, accountName: 'No card' });
      expect(refused.status).toBe(400);
      expect(refused.body.message).toBe(Messages.cardRequiredToCreate);
      expect(await row(id)).toMatchObject({ is_draft: true });
      const cardId = await u.addCard(id);
      expect((await u.finish({ accountId: id, accountName: 'With card', cardId })).status).toBe(200);
    } finally {
      await saveSetting(db(), 'ADD_PAYMENT_CARD', { mandatory: false });
    }
  });

  it.each([
    [{ accountName: 'bad;name' }, Messages.invalidAccountName],
    [{ accountName: 'ACCOUNT_CREATION' }, Messages.invalidAccountName],
    [{ accountName: '' }, Messages.invalidAccountName],
    // An invitation quotes the name in an e-mail: no line of its own can pass for the service's words.
    [{ accountName: 'Ops\r\nSECURITY NOTICE. Your account is locked' }, Messages.invalidAccountName],
    [{ accountName: 'tab\there' }, Messages.invalidAccountName],
    [{ accountName: 'ok', cardId: '00000000-0000-4000-8000-000000000000' }, Messages.cardNotFound],
    [{ accountName: 'ok', cardId: 'not-a-uuid' }, 'body.cardId must match format "uuid"'],
    [{ accountName: 'ok', redeemWelcomeCredit: 'yes' }, 'body.redeemWelcomeCredit must be boolean'],
    [{ accountName: 'ok', extra: 1 }, "body must not have property 'extra'"],
  ])('refuses the finish %j with its message and leaves the draft as it was', async (fields, message) => {
    const u = await user();
    const id = await u.draft();
    const answer = await u.finish({ accountId: id, ...fields });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe(message);
    expect(await row(id)).toMatchObject({ name: 'ACCOUNT_CREATION', is_draft: true });
    expect(await ledger(id)).toEqual([]);
  });

  it('refuses another user’s draft, another account’s card and a finish with no account', async () => {
    const u = await user();
    const other = await user();
    const theirs = await other.draft();
    const theirCard = await other.addCard(theirs);
    const stranger = await u.finish({ accountId: theirs, accountName: 'Mine now' });
    expect(stranger.status).toBe(403);
    expect(stranger.body.message).toBe(Messages.notAMember);

    const mine = await u.draft();
    const card = await u.finish({ accountId: mine, accountName: 'Theirs card', cardId: theirCard });
    expect(card.body.message).toBe(Messages.cardNotFound);

    const none = await u.finish({ accountName: 'Nowhere' });
    expect(none.status).toBe(400);
    expect(none.body.message).toBe(Messages.accountHeaderRequired);
    expect(await row(theirs)).toMatchObject({ name: 'ACCOUNT_CREATION', is_draft: true });
  });

  it('refuses to rename a finished account through the finish step', async () => {
    const u = await user();
    const id = await u.draft();
    await u.finish({ accountId: id, accountName: 'First' });
    const answer = await u.finish({ accountId: id, accountName: 'Second' });
    expect(answer.body.message).toBe(Messages.accountAlreadyCreated);
    expect(await row(id)).toMatchObject({ name: 'First', is_draft: false });
  });

  it('does not count the draft in the limit of 10, but refuses a draft or finish past it', async () => {
    const u = await user();
    const id = await u.draft();
    for (let i = 1; i <= 9; i += 1)
      await u.c.post('/api/v1.0/account', { accountName: `n${i}` }, { 'ebs-account-id': '' });
    expect((await u.finish({ accountId: id, accountName: 'tenth' })).status).toBe(200);
    const eleventh = await u.c.post('/api/v1.0/account', { accountName: 'ACCOUNT_CREATION' }, { 'ebs-account-id': '' });
    expect(eleventh.status).toBe(400);
    expect(eleventh.body.message).toBe(Messages.accountLimit);
    expect((await u.list()).total).toBe(10);
  });

  it('serves a draft only its card and details calls: money waits for the finish', async () => {
    const u = await user();
    const id = await u.draft();
    const h = { 'ebs-account-id': id };
    const cardId = await u.addCard(id);
    expect((await u.c.get('/api/v1.0/account/details', h)).status).toBe(200);
    const deposit = await u.c.post('/api/v1.0/payment/card/deposit', { cardId, depositAmount: 20 }, h);
    expect(deposit.status).toBe(400);
    expect(deposit.body.message).toBe(Messages.accountNotFinished);
    const bonus = await u.c.post('/api/v1.0/account/redeemBonus', { accountId: id, type: 'WELCOME_CREDIT' }, h);
    expect(bonus.body.message).toBe(Messages.accountNotFinished);
    expect(await ledger(id)).toEqual([]);
  });

  it('cleans up drafts abandoned for a day, with their cards at the provider', async () => {
    const u = await user();
    const stale = await u.draft();
    await u.addCard(stale);
    const customerId = (await row(stale))?.customer_id ?? '';
    await db()
      .updateTable('accounts')
      .set({ created_at: sql`now() - interval '25 hours'` })
      .where('id', '=', stale)
      .execute();
    const finished = await user();
    const kept = await finished.draft();
    await finished.finish({ accountId: kept, accountName: 'Old but finished' });
    await db()
      .updateTable('accounts')
      .set({ created_at: sql`now() - interval '25 hours'` })
      .where('id', '=', kept)
      .execute();
    const fresh = await (await user()).draft();

    const result = (await server().deps.jobs.cleanup?.()) as { deleted: number; errors: string[] };
    expect(result.errors).toEqual([]);
    expect(result.deleted).toBeGreaterThanOrEqual(1);
    expect(await row(stale)).toBeUndefined();
    expect(await row(kept)).toMatchObject({ name: 'Old but finished' });
    expect(await row(fresh)).toMatchObject({ is_draft: true });
    const methods = await db()
      .selectFrom('processor_payment_methods')
      .select('detached_at')
      .where('customer_id', '=', customerId)
      .execute();
    expect(methods).toHaveLength(1);
    expect(methods[0]?.detached_at).toBeInstanceOf(Date);
  });
});
