import {
  type AccountDetails,
  type AccountList,
  type AccountSummary,
  Messages,
  type RotatedSigningSecret,
} from '@ebs/contract';
import { describe, expect, it } from 'vitest';
import { unseal } from '../../secrets.ts';
import { Client } from '../../testing/client.ts';
import { testDatabases } from '../../testing/databases.ts';
import { logSink } from '../../testing/log-sink.ts';
import { serverFor, type TestServer } from '../../testing/server.ts';

/** An owner with a new account, and a second user the owner added as a MEMBER. */
async function ownerAndMember(server: TestServer, accountName = 'Settings') {
  const owner = new Client(server.url);
  await owner.signUp();
  const id = (await owner.post<AccountSummary>('/api/v1.0/account', { accountName })).body.data.id;
  const h = { 'ebs-account-id': id };
  const member = new Client(server.url);
  const { email } = await member.signUp();
  expect((await owner.post('/api/v1.0/account/user', { email }, h)).status).toBe(200);
  // The member takes up the invitation at their next look at their accounts.
  await member.get('/api/v1.0/account');
  return { owner, member, id, h };
}

const storedName = async (server: TestServer, id: string) =>
  (await server.db.selectFrom('accounts').select('name').where('id', '=', id).executeTakeFirstOrThrow()).name;

const sealedSecret = async (server: TestServer, id: string) =>
  (
    await server.db
      .selectFrom('accounts')
      .select('signing_secret_sealed')
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
  ).signing_secret_sealed;

describe.each(testDatabases)('account name on $name', (database) => {
  const server = serverFor(database);
  const rename = (c: Client, h: Record<string, string>, body: unknown) =>
    c.post<AccountSummary>('/api/v1.0/account/updateAccountName', body, h);

  it('renames the account for its owner with "{name} has been updated."', async () => {
    const { owner, member, id, h } = await ownerAndMember(server());
    const answer = await rename(owner, h, { accountName: 'Renamed_ops.1/2=3+4-5' });
    expect(answer.status).toBe(200);
    expect(answer.body.message).toBe('Renamed_ops.1/2=3+4-5 has been updated.');
    expect(answer.body.data).toMatchObject({ id, name: 'Renamed_ops.1/2=3+4-5', roleName: 'OWNER' });
    const listed = await member.get<AccountList>('/api/v1.0/account', { 'ebs-account-id': '' });
    expect(listed.body.data.accounts.map((a) => a.name)).toEqual(['Renamed_ops.1/2=3+4-5']);
  });

  it.each(['', 'emoji 🚀', 'semi;colon', 'é-accent', 'x'.repeat(257), 'ACCOUNT_CREATION'])(
    'refuses the name %j with "Invalid account name" and keeps the old one',
    async (accountName) => {
      const { owner, id, h } = await ownerAndMember(server(), 'Kept');
      const answer = await rename(owner, h, { accountName });
      expect(answer.status).toBe(400);
      expect(answer.body.message).toBe(Messages.invalidAccountName);
      expect(await storedName(server(), id)).toBe('Kept');
    },
  );

  it.each([
    [{}, "body must have property 'accountName'"],
    [{ accountName: 'ok', extra: 1 }, "body must not have property 'extra'"],
    [{ accountName: { text: 'x' } }, 'body.accountName must be string'],
  ])('refuses the body %j with "%s" and keeps the old name', async (body, message) => {
    const { owner, id, h } = await ownerAndMember(server(), 'Kept');
    const answer = await rename(owner, h, body);
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe(message);
    expect(await storedName(server(), id)).toBe('Kept');
  });

  it('refuses a MEMBER renaming the account, even calling the API directly', async () => {
    const { member, id, h } = await ownerAndMember(server(), 'Owned');
    const answer = await rename(member, h, { accountName: 'Taken over' });
    expect(answer.status).toBe(403);
    expect(answer.body.message).toBe(Messages.ownerOnlyRename);
    // The permission is checked before the name: a member learns nothing from validation.
    expect((await rename(member, h, { accountName: 'bad;name' })).body.message).toBe(Messages.ownerOnlyRename);
    expect(await storedName(server(), id)).toBe('Owned');
  });
});

describe.each(testDatabases)('signing secret on $name', (database) => {
  const server = serverFor(database);
  const read = (c: Client, h: Record<string, string>) =>
    c.get<{ secret: string }>('/api/v1.0/account/signing-secret', h);

  it('gives the owner the same whsec_ secret on every read, stored only sealed, and a member none', async () => {
    const { owner, member, id, h } = await ownerAndMember(server());
    const first = await read(owner, h);
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('no-store');
    const { secret } = first.body.data;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    expect((await read(owner, h)).body.data.secret).toBe(secret);
    // Whoever holds the secret can forge the account's webhooks: a member cannot reveal it.
    const refused = await read(member, h);
    expect({ status: refused.status, message: refused.body.message }).toEqual({
      status: 403,
      message: Messages.ownerOnlyRevealSigningSecret,
    });

    const sealed = await sealedSecret(server(), id);
    expect(sealed).toBeTruthy();
    expect(sealed).not.toContain(secret.slice('whsec_'.length));
    expect(sealed).not.toContain('whsec_');
    expect(unseal(server().deps.secrets.dataKey, sealed ?? '')).toBe(secret);
  });

  it('gives each account its own secret', async () => {
    const a = await ownerAndMember(server());
    const b = await ownerAndMember(server());
    expect((await read(a.owner, a.h)).body.data.secret).not.toBe((await read(b.owner, b.h)).body.data.secret);
  });

  it('makes one secret for an account that has none, however many first reads race', async () => {
    const { owner, id, h } = await ownerAndMember(server());
    await server().db.updateTable('accounts').set({ signing_secret_sealed: null }).where('id', '=', id).execute();
    const answers = await Promise.all([read(owner, h), read(owner, h), read(owner, h), read(owner, h)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    const secrets = new Set(answers.map((a) => a.body.data.secret));
    expect(secrets.size).toBe(1);
    const [secret] = [...secrets];
    expect(secret).toMatch(/^whsec_/);
    expect(unseal(server().deps.secrets.dataKey, (await sealedSecret(server(), id)) ?? '')).toBe(secret);
    expect((await read(owner, h)).body.data.secret).toBe(secret);
  });

  it('never sends the secret with the account list or details', async () => {
    const { owner, member, h } = await ownerAndMember(server());
    const { secret } = (await read(owner, h)).body.data;
    for (const c of [owner, member]) {
      const list = await c.get('/api/v1.0/account', { 'ebs-account-id': '' });
      const details = await c.get<AccountDetails>('/api/v1.0/account/details', h);
      expect(details.status).toBe(200);
      for (const body of [list.body, details.body]) {
        expect(JSON.stringify(body)).not.toContain(secret);
        expect(JSON.stringify(body)).not.toContain('whsec_');
        expect(JSON.stringify(body)).not.toContain('v1.');
      }
    }
  });

  it('rotates the secret for its owner, who reads the new one and is e-mailed', async () => {
    const { owner, id, h } = await ownerAndMember(server());
    const before = (await read(owner, h)).body.data.secret;
    const answer = await owner.post<RotatedSigningSecret>('/api/v1.0/account/signing-secret/rotate', undefined, h);
    expect(answer.status).toBe(200);
    expect(answer.body.message).toBe(Messages.signingSecretRotated);
    const { secret, previousSecretExpiresAt } = answer.body.data;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(secret).not.toBe(before);
    expect((await read(owner, h)).body.data.secret).toBe(secret);

    const stored = await server()
      .db.selectFrom('accounts')
      .select(['signing_secret_sealed', 'previous_signing_secret_sealed', 'signing_secret_rotated_at'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    const { dataKey } = server().deps.secrets;
    expect(unseal(dataKey, stored.signing_secret_sealed ?? '')).toBe(secret);
    expect(unseal(dataKey, stored.previous_signing_secret_sealed ?? '')).toBe(before);
    expect(JSON.stringify(stored)).not.toContain(before.slice('whsec_'.length));
    expect(previousSecretExpiresAt).toBe(new Date(Number(stored.signing_secret_rotated_at) + 86_400_000).toISOString());

    const ownerEmail = (await owner.get<AccountDetails>('/api/v1.0/account/details', h)).body.data.owner.email;
    const mails = (await (
      await fetch(`${server().url}/dev/mailbox.json?to=${encodeURIComponent(ownerEmail)}`)
    ).json()) as Array<{
      subject: string;
      text: string;
    }>;
    expect(mails[0]?.subject).toBe('The signing secret of "Settings" on EBS Console was rotated');
    expect(mails[0]?.text).toContain(`${ownerEmail} rotated the webhook signing secret`);
    expect(mails[0]?.text).toContain(`Until ${previousSecretExpiresAt}, webhooks are signed with both`);
    expect(mails[0]?.text).not.toContain(secret.slice('whsec_'.length));
  });

  it('refuses the secret to a user of another account', async () => {
    const { h } = await ownerAndMember(server());
    const stranger = new Client(server().url);
    await stranger.signUp();
    const answer = await read(stranger, h);
    expect(answer.status).toBe(403);
    expect(answer.body.message).toBe(Messages.notAMember);
  });
});

describe('signing secret in the logs', () => {
  const { lines, stream: sink } = logSink();
  const server = serverFor(testDatabases[0]!, { LOG_LEVEL: 'trace' }, sink);

  it('is never written to the log, neither when made nor when read', async () => {
    const { owner, id, h } = await ownerAndMember(server());
    await server().db.updateTable('accounts').set({ signing_secret_sealed: null }).where('id', '=', id).execute();
    const { secret } = (await owner.get<{ secret: string }>('/api/v1.0/account/signing-secret', h)).body.data;
    await owner.get('/api/v1.0/account/signing-secret', h);
    const log = lines.join('\n');
    expect(log).toContain('/api/v1.0/account/signing-secret');
    expect(log).not.toContain(secret.slice('whsec_'.length));
  });
});
