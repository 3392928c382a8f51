import { type AccountDetails, type AccountList, type AccountSummary, Messages, type UserRole } from '@ebs/contract';
import { describe, expect, it } from 'vitest';
import { Client, uniqueEmail } from '../../testing/client.ts';
import { testDatabases } from '../../testing/databases.ts';
import { serverFor, type TestServer } from '../../testing/server.ts';

type Headers = Record<string, string>;

async function ownerOf(server: TestServer, accountName = 'Access') {
  const owner = new Client(server.url);
  const { userId } = await owner.signUp();
  const id = (await owner.post<AccountSummary>('/api/v1.0/account', { accountName })).body.data.id;
  return { owner, ownerId: userId, id, h: { 'ebs-account-id': id } };
}

const signedUp = async (server: TestServer, email?: string) => {
  const c = new Client(server.url);
  const { email: address, userId } = await c.signUp(email);
  return { c, email: address, userId };
};

const add = (c: Client, h: Headers, body: unknown) =>
  c.post<{ email: string; status: string }>('/api/v1.0/account/user', body, h);
const remove = (c: Client, h: Headers, id: string) => c.call('DELETE', `/api/v1.0/account/${id}`, { headers: h });
const userRoles = async (c: Client, h: Headers) =>
  (await c.get<AccountDetails>('/api/v1.0/account/details', h)).body.data.userRoles;
const listed = async (c: Client) =>
  (await c.get<AccountList>('/api/v1.0/account', { 'ebs-account-id': '' })).body.data.accounts;

const mails = (server: TestServer, to: string) =>
  server.db
    .selectFrom('mail_outbox')
    .select(['subject', 'text'])
    .where('to_email', '=', to)
    .orderBy('id', 'desc')
    .execute();

const invitations = (server: TestServer, accountId: string) =>
  server.db.selectFrom('account_invitations').select(['id', 'email']).where('account_id', '=', accountId).execute();

const shape = (roles: UserRole[]) => roles.map((r) => [r.email, r.roleName]);

describe.each(testDatabases)('account access on $name', (database) => {
  const server = serverFor(database);

  it('invites an existing user like anyone else, mails them, and they join at their next look at their accounts', async () => {
    const { owner, id, h } = await ownerOf(server(), 'Shared ops');
    const member = await signedUp(server());

    // The address is normalised as typed: spaces removed, lower-cased.
    const answer = await add(owner, h, { email: ` ${member.email.toUpperCase()} ` });
    expect(answer.status).toBe(200);
    expect(answer.body.message).toBe(`${member.email} has been added to this account.`);
    expect(answer.body.data).toEqual({ email: member.email, status: 'INVITED' });
    expect((await userRoles(owner, h))[1]).toMatchObject({ email: member.email, firstName: '', roleName: 'INVITED' });
    const [mail] = await mails(server(), member.email);
    expect(mail?.subject).toBe('You are invited to "Shared ops" on EBS Console');
    expect(mail?.text).toContain('/accounts');

    expect((await listed(member.c)).map((a) => [a.id, a.name, a.roleName])).toEqual([[id, 'Shared ops', 'MEMBER']]);
    const roles = await userRoles(owner, h);
    expect(roles[1]).toEqual({
      id: member.userId,
      email: member.email,
      firstName: 'Test',
      lastName: 'User',
      roleName: 'MEMBER',
    });
    expect(await invitations(server(), id)).toEqual([]);
    const details = await member.c.get<AccountDetails>('/api/v1.0/account/details', h);
    expect(details.status).toBe(200);
    expect(details.body.data).toMatchObject({ id, roleName: 'MEMBER' });
    expect(shape(details.body.data.userRoles)).toEqual(shape(roles));
  });

  it("removes a member by the row of the invitation they have just accepted, as the owner's open page still shows it", async () => {
    const { owner, id, h } = await ownerOf(server(), 'Removal');
    const member = await signedUp(server());
    await add(owner, h, { email: member.email });
    // The owner's page, still open, holds the invitation's row.
    const invited = (await userRoles(owner, h)).find((r) => r.email === member.email);
    expect(invited?.roleName).toBe('INVITED');
    // The user opens My Accounts and joins.
    expect((await listed(member.c)).map((a) => a.id)).toEqual([id]);

    const removed = await remove(owner, h, invited?.id as string);
    expect(removed.status).toBe(200);
    expect(shape(await userRoles(owner, h))).toEqual([[expect.any(String), 'OWNER']]);
    expect(await listed(member.c)).toEqual([]);
    expect((await member.c.get('/api/v1.0/account/details', h)).status).toBe(403);
    // The row is gone: removing it again says so.
    const again = await remove(owner, h, invited?.id as string);
    expect({ status: again.status, message: again.body.message }).toEqual({
      status: 404,
      message: Messages.userNotInAccount,
    });
  });

  it.each([
    ['', Messages.userEmailRequired],
    ['   ', Messages.userEmailRequired],
    ['not-an-email', Messages.invalidEmail],
    ['someone@nowhere', Messages.invalidEmail],
    ['two@@example.com', Messages.invalidEmail],
  ])('refuses the e-mail %j with "%s", adding and mailing nobody', async (email, message) => {
    const { owner, id, h } = await ownerOf(server());
    const answer = await add(owner, h, { email });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe(message);
    expect(shape(await userRoles(owner, h))).toHaveLength(1);
    expect(await invitations(server(), id)).toEqual([]);
  });

  it.each([
    [{}, "body must have property 'email'"],
    [{ email: 'a@example.com', roleName: 'OWNER' }, "body must not have property 'roleName'"],
  ])('refuses the body %j with "%s"', async (body, message) => {
    const { owner, id, h } = await ownerOf(server());
    const answer = await add(owner, h, body);
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe(message);
    expect(await invitations(server(), id)).toEqual([]);
  });

  it('refuses adding a member again, or inviting an invited e-mail again, with a clear message', async () => {
    const { owner, ownerId, h } = await ownerOf(server());
    const member = await signedUp(server());
    await add(owner, h, { email: member.email });
    await listed(member.c);
    const again = await add(owner, h, { email: member.email });
    expect(again.status).toBe(400);
    expect(again.body.message).toBe(`${member.email} is already a member of this account.`);

    const ownerEmail = (await userRoles(owner, h)).find((r) => r.id === ownerId)?.email ?? '';
    expect((await add(owner, h, { email: ownerEmail })).body.message).toBe(
      `${ownerEmail} is already a member of this account.`,
    );

    const stranger = uniqueEmail();
    await add(owner, h, { email: stranger });
    const invitedAgain = await add(owner, h, { email: stranger });
    expect(invitedAgain.status).toBe(400);
    expect(invitedAgain.body.message).toBe(`${stranger} has already been invited to this account.`);
    expect(await mails(server(), stranger)).toHaveLength(1);
    expect(shape(await userRoles(owner, h))).toHaveLength(3);
  });

  it('invites an e-mail with no user, lists it as INVITED, and its sign-up joins the account as a MEMBER', async () => {
    const { owner, id, h } = await ownerOf(server(), 'Invited ops');
    const email = uniqueEmail();
    const answer = await add(owner, h, { email });
    expect(answer.status).toBe(200);
    expect(answer.body.message).toBe(`${email} has been added to this account.`);
    expect(answer.body.data).toEqual({ email, status: 'INVITED' });

    const [invitation] = await invitations(server(), id);
    const pending = (await userRoles(owner, h))[1];
    expect(pending).toEqual({ id: invitation?.id, email, firstName: '', lastName: '', roleName: 'INVITED' });
    const [mail] = await mails(server(), email);
    expect(mail?.subject).toBe('You are invited to "Invited ops" on EBS Console');
    expect(mail?.text).toContain('http://localhost:8080/sign-up');

    const joined = await signedUp(server(), email);
    expect((await listed(joined.c)).map((a) => [a.id, a.roleName])).toEqual([[id, 'MEMBER']]);
    expect((await joined.c.get('/api/v1.0/account/details', h)).status).toBe(200);
    expect(await invitations(server(), id)).toEqual([]);
    const roles = await userRoles(owner, h);
    expect(roles[1]).toEqual({ id: joined.userId, email, firstName: 'Test', lastName: 'User', roleName: 'MEMBER' });
  });

  it('invites rather than adds a sign-up that is not yet confirmed, which joins once confirmed', async () => {
    const { owner, id, h } = await ownerOf(server());
    const email = uniqueEmail();
    const pending = new Client(server().url);
    await pending.post('/auth/sign-up', { email, password: 'correct horse 1', givenName: 'Pen', familyName: 'Ding' });
    expect((await add(owner, h, { email })).body.data).toEqual({ email, status: 'INVITED' });

    // Another one's mail is the newest: read the sign-up code explicitly.
    const code = (await mails(server(), email))
      .find((m) => /verification code/.test(m.subject))
      ?.text.match(/\d{6}/)?.[0];
    const confirmed = await pending.post<{ idToken: string }>('/auth/confirm-sign-up', { email, code });
    expect(confirmed.status).toBe(200);
    pending.idToken = confirmed.body.data.idToken;
    expect((await listed(pending)).map((a) => a.id)).toEqual([id]);
  });

  it('joins the inviting account when a password reset is what confirms the e-mail', async () => {
    const { owner, id, h } = await ownerOf(server());
    const email = uniqueEmail();
    const c = new Client(server().url);
    await c.post('/auth/sign-up', { email, password: 'correct horse 1', givenName: 'Re', familyName: 'Set' });
    await add(owner, h, { email });
    await c.post('/auth/forgot-password', { email });
    const reset = await c.post('/auth/confirm-forgot-password', {
      email,
      code: await c.mailedCode(email),
      newPassword: 'new horse 22',
    });
    expect(reset.status).toBe(200);
    const signIn = await c.post<{ idToken: string }>('/auth/sign-in', { email, password: 'new horse 22' });
    c.idToken = signIn.body.data.idToken;
    expect((await listed(c)).map((a) => a.id)).toEqual([id]);
  });

  it('removes a member, whose very next call with the account is refused', async () => {
    const { owner, h } = await ownerOf(server());
    const member = await signedUp(server());
    await add(owner, h, { email: member.email });
    await listed(member.c);
    expect((await member.c.get('/api/v1.0/account/details', h)).status).toBe(200);

    const answer = await remove(owner, h, member.userId);
    expect(answer.status).toBe(200);
    expect(answer.body.message).toBe('User has been removed from this account.');

    for (const call of [
      member.c.get('/api/v1.0/account/details', h),
      member.c.get('/api/v1.0/account/signing-secret', h),
      member.c.get('/api/v1.0/payment/card', h),
    ]) {
      const refused = await call;
      expect(refused.status).toBe(403);
      expect(refused.body.message).toBe(Messages.notAMember);
    }
    expect(await listed(member.c)).toEqual([]);
    expect(shape(await userRoles(owner, h))).toHaveLength(1);
  });

  it('cancels a pending invitation by its id, after which that sign-up joins nothing', async () => {
    const { owner, id, h } = await ownerOf(server());
    const email = uniqueEmail();
    await add(owner, h, { email });
    const invitationId = (await userRoles(owner, h))[1]?.id ?? '';

    const answer = await remove(owner, h, invitationId);
    expect(answer.status).toBe(200);
    expect(answer.body.message).toBe('User has been removed from this account.');
    expect(await invitations(server(), id)).toEqual([]);
    const later = await signedUp(server(), email);
    expect(await listed(later.c)).toEqual([]);
  });

  it('refuses removing yourself, the owner, or someone not in the account, removing nobody', async () => {
    const { owner, ownerId, id, h } = await ownerOf(server());
    const self = await remove(owner, h, ownerId);
    expect(self.status).toBe(400);
    expect(self.body.message).toBe(Messages.cannotRemoveSelf);

    // An account has one owner today; a second one (as an operator could make) is still not removable.
    const coOwner = await signedUp(server());
    await server()
      .db.insertInto('account_members')
      .values({ account_id: id, user_id: coOwner.userId, role_name: 'OWNER' })
      .execute();
    const other = await remove(owner, h, coOwner.userId);
    expect(other.status).toBe(400);
    expect(other.body.message).toBe(Messages.cannotRemoveOwner);

    const elsewhere = await ownerOf(server());
    for (const unknown of ['00000000-0000-4000-8000-000000000001', 'not-an-id', elsewhere.ownerId]) {
      const answer = await remove(owner, h, unknown);
      expect(answer.status, unknown).toBe(404);
      expect(answer.body.message).toBe(Messages.userNotInAccount);
    }
    expect(shape(await userRoles(owner, h))).toHaveLength(2);
    expect(await listed(elsewhere.owner)).toHaveLength(1);
  });

  it("refuses a MEMBER's adding or removing of users, even calling the API directly", async () => {
    const { owner, ownerId, id, h } = await ownerOf(server());
    const member = await signedUp(server());
    const other = await signedUp(server());
    await add(owner, h, { email: member.email });
    await add(owner, h, { email: other.email });
    await Promise.all([listed(member.c), listed(other.c)]);
    await add(owner, h, { email: 'invited@example.com' });
    const invitationId = (await invitations(server(), id))[0]?.id ?? '';
    const before = shape(await userRoles(owner, h));

    for (const email of [uniqueEmail(), (await signedUp(server())).email, '']) {
      const answer = await add(member.c, h, { email });
      expect(answer.status).toBe(403);
      expect(answer.body.message).toBe(Messages.ownerOnlyUsers);
    }
    for (const target of [other.userId, ownerId, invitationId, member.userId]) {
      const answer = await remove(member.c, h, target);
      expect(answer.status).toBe(403);
      expect(answer.body.message).toBe(Messages.ownerOnlyUsers);
    }
    expect(shape(await userRoles(owner, h))).toEqual(before);
  });

  it('refuses a user of another account adding or removing users', async () => {
    const { h, ownerId } = await ownerOf(server());
    const stranger = await ownerOf(server());
    for (const answer of [
      await add(stranger.owner, h, { email: uniqueEmail() }),
      await remove(stranger.owner, h, ownerId),
    ]) {
      expect(answer.status).toBe(403);
      expect(answer.body.message).toBe(Messages.notAMember);
    }
  });
});
