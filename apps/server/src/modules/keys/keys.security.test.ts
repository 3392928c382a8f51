import { type ApiKeyList, Messages } from '@ebs/contract';
import { describe, expect, it } from 'vitest';
import { testDatabases } from '../../testing/databases.ts';
import { serverFor } from '../../testing/server.ts';
import { expectRefused, KEY, keyRow, keyUser, liveKeyCount } from './keys.test-kit.ts';

describe.each(testDatabases)('API keys across accounts and roles on $name', (database) => {
  const server = serverFor(database);

  it('lists only the keys of the account in ebs-account-id', async () => {
    const m = await keyUser(server());
    await m.createOk('first account key');
    const other = await m.newAccount('Other');

    const answer = await m.c.get<ApiKeyList>(`${KEY}?limit=100&offset=0`, { 'ebs-account-id': other });

    expect(answer.body.data).toEqual({ apiKeys: [], offset: 0, limit: 100, total: 0, count: 0 });
  });

  it("answers another account's key as not found, even to a member of both, and changes nothing", async () => {
    const m = await keyUser(server());
    const created = await m.createOk('account one');
    await m.post(`${created.id}/deactivate`);
    const before = await keyRow(server(), created.id);
    const otherHeader = { 'ebs-account-id': await m.newAccount('Account two') };

    expectRefused(
      await m.post(`${created.id}/updateName`, { apiKeyName: 'taken' }, otherHeader),
      404,
      Messages.apiKeyNotFound,
    );
    expectRefused(await m.post(`${created.id}/activate`, undefined, otherHeader), 404, Messages.apiKeyNotFound);
    expectRefused(await m.post(`${created.id}/deactivate`, undefined, otherHeader), 404, Messages.apiKeyNotFound);
    expectRefused(await m.remove(created.id, otherHeader), 404, Messages.apiKeyNotFound);

    expect(await keyRow(server(), created.id)).toEqual(before);
  });

  it("refuses a user who names another user's account, on every key route", async () => {
    const owner = await keyUser(server());
    const created = await owner.createOk('not yours');
    const stranger = await keyUser(server());
    const h = owner.h;

    const answers = [
      await stranger.c.get(`${KEY}?limit=100&offset=0`, h),
      await stranger.create('intruder', h),
      await stranger.c.post(KEY, { name: 'intruder' }, h),
      await stranger.post(`${created.id}/updateName`, { apiKeyName: 'mine now' }, h),
      await stranger.post(`${created.id}/deactivate`, undefined, h),
      await stranger.post(`${created.id}/activate`, undefined, h),
      await stranger.remove(created.id, h),
    ];

    for (const answer of answers) expectRefused(answer, 403, Messages.notAMember);
    expect(await keyRow(server(), created.id)).toMatchObject({ name: 'not yours', status: 'ACTIVE', deleted_at: null });
    expect(await liveKeyCount(server(), owner.accountId)).toBe(1);
  });

  it('lets a MEMBER (not only the owner) manage and delete keys', async () => {
    const owner = await keyUser(server());
    const colleague = await keyUser(server());
    expect((await owner.c.post('/api/v1.0/account/user', { email: colleague.email }, owner.h)).status).toBe(200);
    // The colleague takes up the invitation at their next look at their accounts.
    await colleague.c.get('/api/v1.0/account');
    const h = owner.h;

    const created = await colleague.create('by a member', h);
    expect(created.status).toBe(200);
    const id = created.body.data.id;
    expect((await colleague.post(`${id}/updateName`, { apiKeyName: 'renamed' }, h)).status).toBe(200);
    expect((await colleague.post(`${id}/deactivate`, undefined, h)).status).toBe(200);
    expect((await colleague.remove(id, h)).status).toBe(200);
    expect((await owner.list()).total).toBe(0);
  });
});
