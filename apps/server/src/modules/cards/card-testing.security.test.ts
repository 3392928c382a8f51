import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { addCard } from '../../testing/cards.ts';
import { type Answer, Client } from '../../testing/client.ts';
import { testDatabases } from '../../testing/databases.ts';
import { expectLimited } from '../../testing/limited.ts';
import { reportFigures } from '../../testing/report.ts';
import { serverFor } from '../../testing/server.ts';

/** The shipped default of PAYMENT_RATE_LIMIT_PER_MINUTE. */
const PER_MINUTE = 10;

describe.each(testDatabases)('card testing through the console on $name', (database) => {
  const server = serverFor(database);
  const figures = { perMinute: PER_MINUTE, attempts: 0, served: 0, limited: 0, charges: 0 };
  afterAll(() => reportFigures(`card testing (${database.name})`, figures));

  const count = (answer: Answer) => {
    figures.attempts++;
    if (answer.status === 429) figures.limited++;
    else figures.served++;
    return answer;
  };
  const person = async () => {
    const c = new Client(server().url);
    const user = await c.signUp();
    return { c, ...user };
  };
  const openAccount = async (c: Client, accountName = 'cards') => {
    const id = (await c.post<{ id: string }>('/api/v1.0/account', { accountName })).body.data.id;
    return { id, h: { 'ebs-account-id': id } };
  };
  /** A member who has taken up the owner's invitation. */
  const memberOf = async (owner: Client, h: Record<string, string>) => {
    const member = await person();
    expect((await owner.post('/api/v1.0/account/user', { email: member.email }, h)).status).toBe(200);
    await member.c.get('/api/v1.0/account?limit=10&offset=0');
    return member.c;
  };

  it('card numbers tried one after another on an account are refused with 429 past the limit', async () => {
    const { c } = await person();
    const { h } = await openAccount(c);
    // Tokens the card processor does not know: each attach asks it, and is refused by it.
    for (let i = 0; i < PER_MINUTE; i++) {
      const answer = count(await c.post('/api/v1.0/payment/card', { cardToken: `pm_${randomUUID()}` }, h));
      expect(answer.status).toBe(400);
    }
    expectLimited(count(await c.post('/api/v1.0/payment/card', { cardToken: `pm_${randomUUID()}` }, h)));

    for (let i = 0; i < PER_MINUTE; i++) expect(count(await c.get('/api/v1.0/payment/local', h)).status).toBe(200);
    expectLimited(count(await c.get('/api/v1.0/payment/local', h)));
  });

  it("the members of one account share the account's allowance of deposits, and no charge is made past it", async () => {
    const owner = await person();
    const { id, h } = await openAccount(owner.c, 'shared');
    // Charges on this card fail: the shape of a run testing a saved card.
    const cardId = await addCard(owner.c, id, '4000000000009995');
    const members = [owner.c, await memberOf(owner.c, h), await memberOf(owner.c, h)];
    const deposit = (c: Client) =>
      c.post('/api/v1.0/payment/card/deposit', { cardId, depositAmount: 5 }, { ...h, 'idempotency-key': randomUUID() });

    for (let i = 0; i < PER_MINUTE; i++) expect(count(await deposit(members[i % 3] as Client)).status).toBe(402);
    for (const c of members) expectLimited(count(await deposit(c)));

    const charges = await server()
      .db.selectFrom('processor_charges as p')
      .innerJoin('accounts as a', 'a.customer_id', 'p.customer_id')
      .select('p.id')
      .where('a.id', '=', id)
      .execute();
    figures.charges += charges.length;
    expect(charges).toHaveLength(PER_MINUTE);
  });

  it('one user spreading card setups over many accounts meets their own limit', async () => {
    const { c } = await person();
    const accounts = [];
    for (let i = 0; i < 4; i++) accounts.push(await openAccount(c, `spread ${i}`));
    const answers = [];
    for (let i = 0; i <= PER_MINUTE; i++) {
      const { h } = accounts[i % accounts.length] ?? { h: {} };
      answers.push(count(await c.get('/api/v1.0/payment/local', h)));
    }
    expect(answers.slice(0, PER_MINUTE).map((a) => a.status)).toEqual(Array(PER_MINUTE).fill(200));
    expectLimited(answers[PER_MINUTE] as Answer);

    // Another person's account is not held back by it.
    const other = await person();
    expect((await other.c.get('/api/v1.0/payment/local', (await openAccount(other.c)).h)).status).toBe(200);
  });
});
