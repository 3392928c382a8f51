import { CONTACT_MESSAGE_MAX, Messages, type SupportTicket } from '@ebs/contract';
import { describe, expect, it } from 'vitest';
import { memoryRateLimiter } from '../../http/rate-limit.ts';
import { Client } from '../../testing/client.ts';
import { testDatabases } from '../../testing/databases.ts';
import { serverFor } from '../../testing/server.ts';
import { SupportService, TICKETS_PER_USER } from './support.service.ts';

const SUPPORT = 'support@localhost';
const PATH = '/api/v1.0/support/dashboard';

describe.each(testDatabases)('Contact Us on $name', (database) => {
  const server = serverFor(database);

  /** A signed-up user with an account of their own, sending as the console does. */
  const member = async (accountName = 'Support desk') => {
    const c = new Client(server().url);
    const user = await c.signUp();
    const accountId = (await c.post<{ id: string }>('/api/v1.0/account', { accountName })).body.data.id;
    const send = (body: unknown, account = accountId) =>
      c.post<SupportTicket>(PATH, body, { 'ebs-account-id': account });
    return { c, ...user, accountId, send };
  };

  const tickets = (accountId: string) =>
    server()
      .db.selectFrom('support_tickets')
      .select(['id', 'user_id', 'message'])
      .where('account_id', '=', accountId)
      .execute();

  /** The support mails about one account, newest first, read from the dev outbox. */
  const mailsAbout = async (accountId: string) => {
    const response = await fetch(`${server().url}/dev/mailbox.json?to=${encodeURIComponent(SUPPORT)}`);
    const mails = (await response.json()) as Array<{ to: string; subject: string; text: string }>;
    return mails.filter((m) => m.text.includes(accountId));
  };

  it('keeps the ticket, mails it to SUPPORT_EMAIL and answers the spec message', async () => {
    const m = await member('Ops team');
    const message = 'The RPC endpoint answers 502 since this morning.\nCould you have a look?';

    const answer = await m.send({ message });

    expect(answer.status).toBe(200);
    expect(answer.body.message).toBe('We received your message, we will get back to you soon.');
    const ticketId = answer.body.data.ticketId;
    expect(await tickets(m.accountId)).toEqual([{ id: ticketId, user_id: m.userId, message }]);
    const mails = await mailsAbout(m.accountId);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.to).toBe(SUPPORT);
    expect(mails[0]?.subject).toBe(`Contact Us ticket from Ops team (${m.accountId})`);
    for (const part of [ticketId, `Account: Ops team (${m.accountId})`, `User: Test User <${m.email}>`, message]) {
      expect(mails[0]?.text).toContain(part);
    }
  });

  it('accepts exactly 10 characters once trimmed and keeps the trimmed text', async () => {
    const m = await member();

    const answer = await m.send({ message: '   0123456789 \n ' });

    expect(answer.status).toBe(200);
    expect((await tickets(m.accountId)).map((t) => t.message)).toEqual(['0123456789']);
  });

  it.each([
    ['9 characters', { message: '012345678' }],
    ['only whitespace', { message: ' \n\t'.repeat(10) }],
    ['9 characters padded with spaces', { message: `     012345678     ` }],
    ['an empty message', { message: '' }],
    ['no message field', {}],
    ['a number', { message: 12345678901 }],
    ['null', { message: null }],
    ['an array of text', { message: ['0123456789'] }],
  ])('refuses %s with the spec text, storing and mailing nothing', async (_case, body) => {
    const m = await member();

    const answer = await m.send(body);

    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe('Your message is too short, please describe the issue in more detail.');
    expect(await tickets(m.accountId)).toEqual([]);
    expect(await mailsAbout(m.accountId)).toEqual([]);
  });

  it('refuses a field other than message, storing and mailing nothing', async () => {
    const m = await member();

    const answer = await m.send({ message: 'A long enough message.', priority: 'urgent' });

    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe("body must not have property 'priority'");
    expect(await tickets(m.accountId)).toEqual([]);
    expect(await mailsAbout(m.accountId)).toEqual([]);
  });

  it(`refuses a message over ${CONTACT_MESSAGE_MAX} characters`, async () => {
    const m = await member();

    const answer = await m.send({ message: 'x'.repeat(CONTACT_MESSAGE_MAX + 1) });

    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe(`body.message must NOT have more than ${CONTACT_MESSAGE_MAX} characters`);
    expect(await tickets(m.accountId)).toEqual([]);
  });

  it("refuses to file a ticket on another user's account", async () => {
    const owner = await member();
    const stranger = await member();

    const answer = await stranger.send({ message: 'Please look at this account.' }, owner.accountId);

    expect(answer.status).toBe(403);
    expect(answer.body.message).toBe(Messages.notAMember);
    expect(await tickets(owner.accountId)).toEqual([]);
    expect(await mailsAbout(owner.accountId)).toEqual([]);
  });

  it(`answers 429 past ${TICKETS_PER_USER.limit} tickets per user in ${TICKETS_PER_USER.windowSeconds / 60} minutes`, async () => {
    const m = await member();
    for (let i = 1; i <= TICKETS_PER_USER.limit; i++) {
      expect((await m.send({ message: `Follow-up number ${i}` })).status).toBe(200);
    }

    const refused = await m.send({ message: 'One message too many.' });

    expect(refused.status).toBe(429);
    expect(refused.body.message).toBe(Messages.contactTooMany);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await tickets(m.accountId)).toHaveLength(TICKETS_PER_USER.limit);
    expect(await mailsAbout(m.accountId)).toHaveLength(TICKETS_PER_USER.limit);
    // Another user is not held back by this one.
    expect((await (await member()).send({ message: 'My own first message.' })).status).toBe(200);
  });

  it('keeps no ticket when the mail to support cannot be sent', async () => {
    const m = await member();
    const failingMailer = {
      send: async () => {
        throw new Error('SMTP server unreachable');
      },
    };
    const support = new SupportService(server().db, failingMailer, memoryRateLimiter(), SUPPORT);

    await expect(
      support.submit({ accountId: m.accountId, userId: m.userId, message: 'Nobody will read this.' }),
    ).rejects.toThrow('SMTP server unreachable');

    expect(await tickets(m.accountId)).toEqual([]);
  });
});
