import { API_KEY_NAME_MAX, Messages } from '@ebs/contract';
import { describe, expect, it } from 'vitest';
import { testDatabases } from '../../testing/databases.ts';
import { serverFor } from '../../testing/server.ts';
import { expectRefused, KEY, keyRow, keyUser, liveKeyCount, UNKNOWN_ID } from './keys.test-kit.ts';

describe.each(testDatabases)('API key refusals on $name', (database) => {
  const server = serverFor(database);

  it('refuses a body on activate and deactivate, changing nothing', async () => {
    const m = await keyUser(server());
    const created = await m.createOk('stays active');

    expectRefused(await m.post(`${created.id}/deactivate`, { status: 'INACTIVE' }), 400, 'This call takes no body.');
    expectRefused(await m.post(`${created.id}/activate`, ['x']), 400, 'This call takes no body.');
    const broken = await fetch(`${server().url}${KEY}/${created.id}/deactivate`, {
      method: 'POST',
      headers: { ...m.h, authorization: `Bearer ${m.c.idToken}`, 'content-type': 'application/json' },
      body: '{not json',
    });
    expect(broken.status).toBe(400);

    const stored = await keyRow(server(), created.id);
    expect(stored.status).toBe('ACTIVE');
    expect(stored.updated_at.toISOString()).toBe(created.updatedAt);
  });

  it('answers a deleted key as unknown everywhere', async () => {
    const m = await keyUser(server());
    const created = await m.createOk('short-lived');
    await m.post(`${created.id}/deactivate`);
    await m.remove(created.id);

    expectRefused(await m.remove(created.id), 404, Messages.apiKeyNotFound);
    expectRefused(await m.post(`${created.id}/activate`), 404, Messages.apiKeyNotFound);
    expectRefused(await m.post(`${created.id}/deactivate`), 404, Messages.apiKeyNotFound);
    expectRefused(await m.post(`${created.id}/updateName`, { apiKeyName: 'back' }), 404, Messages.apiKeyNotFound);
    expect(await keyRow(server(), created.id)).toMatchObject({ name: 'short-lived', status: 'INACTIVE' });
  });

  it.each([
    ['no apiKeyName', {}],
    ['an empty name', { apiKeyName: '' }],
    ['a blank name', { apiKeyName: ' \t\n ' }],
    ['null', { apiKeyName: null }],
    ['a number', { apiKeyName: 42 }],
    ['a list', { apiKeyName: ['name'] }],
  ])('refuses to create with %s: "API key name is required."', async (_case, body) => {
    const m = await keyUser(server());
    expectRefused(await m.c.post(`${KEY}/`, body, m.h), 400, 'API key name is required.');
    expectRefused(
      await m.c.post(KEY, { name: (body as { apiKeyName?: unknown }).apiKeyName }, m.h),
      400,
      'API key name is required.',
    );
    expect(await liveKeyCount(server(), m.accountId)).toBe(0);
  });

  it(`takes a name of ${API_KEY_NAME_MAX} characters and refuses a longer one`, async () => {
    const m = await keyUser(server());
    const longest = 'é'.repeat(API_KEY_NAME_MAX);
    expect((await m.create(`  ${longest}  `)).body.data?.name).toBe(longest);

    expectRefused(await m.create('k'.repeat(API_KEY_NAME_MAX + 1)), 400, Messages.apiKeyNameTooLong);
    expectRefused(
      await m.c.post(KEY, { name: 'k'.repeat(API_KEY_NAME_MAX + 1) }, m.h),
      400,
      Messages.apiKeyNameTooLong,
    );
    expect(await liveKeyCount(server(), m.accountId)).toBe(1);
  });

  it('refuses a name with a line break, a tab or another control character, creating and renaming nothing', async () => {
    const m = await keyUser(server());
    const created = await m.createOk('unchanged');
    for (const name of ['key\r\nSECURITY NOTICE', 'tab\tkey', 'nul\u0000']) {
      expectRefused(await m.create(name), 400, Messages.apiKeyNameInvalid);
      expectRefused(await m.c.post(KEY, { name }, m.h), 400, Messages.apiKeyNameInvalid);
      expectRefused(await m.post(`${created.id}/updateName`, { apiKeyName: name }), 400, Messages.apiKeyNameInvalid);
    }
    expect(await liveKeyCount(server(), m.accountId)).toBe(1);
    expect((await keyRow(server(), created.id)).name).toBe('unchanged');
  });

  it('refuses unknown fields, creating and renaming nothing', async () => {
    const m = await keyUser(server());
    expectRefused(
      await m.c.post(`${KEY}/`, { apiKeyName: 'x', status: 'INACTIVE' }, m.h),
      400,
      "body must not have property 'status'",
    );
    expectRefused(
      await m.c.post(KEY, { name: 'x', apiKeyName: 'y' }, m.h),
      400,
      "body must not have property 'apiKeyName'",
    );
    expect(await liveKeyCount(server(), m.accountId)).toBe(0);

    const created = await m.createOk('named');
    expectRefused(
      await m.post(`${created.id}/updateName`, { apiKeyName: 'renamed', key: 'mine' }),
      400,
      "body must not have property 'key'",
    );
    expect((await keyRow(server(), created.id)).name).toBe('named');
  });

  it.each([
    ['no apiKeyName', {}],
    ['an empty name', { apiKeyName: '' }],
    ['a blank name', { apiKeyName: '   ' }],
    ['a number', { apiKeyName: 7 }],
  ])('refuses to rename with %s: "API  key name is required." (two spaces)', async (_case, body) => {
    const m = await keyUser(server());
    const created = await m.createOk('unchanged');
    expectRefused(await m.post(`${created.id}/updateName`, body), 400, 'API  key name is required.');
    expectRefused(
      await m.post(`${created.id}/updateName`, { apiKeyName: 'n'.repeat(API_KEY_NAME_MAX + 1) }),
      400,
      Messages.apiKeyNameTooLong,
    );
    expect((await keyRow(server(), created.id)).name).toBe('unchanged');
  });

  it('refuses an id that is not a uuid on every key route', async () => {
    const m = await keyUser(server());
    const message = 'params.apiKeyId must match format "uuid"';
    expectRefused(await m.post('not-a-uuid/updateName', { apiKeyName: 'x' }), 400, message);
    expectRefused(await m.post('not-a-uuid/activate'), 400, message);
    expectRefused(await m.post('1234/deactivate'), 400, message);
    expectRefused(await m.remove('not-a-uuid'), 400, message);
  });

  it('answers an unknown id as not found', async () => {
    const m = await keyUser(server());
    expectRefused(await m.post(`${UNKNOWN_ID}/updateName`, { apiKeyName: 'x' }), 404, Messages.apiKeyNotFound);
    expectRefused(await m.post(`${UNKNOWN_ID}/activate`), 404, Messages.apiKeyNotFound);
    expectRefused(await m.post(`${UNKNOWN_ID}/deactivate`), 404, Messages.apiKeyNotFound);
    expectRefused(await m.remove(UNKNOWN_ID), 404, Messages.apiKeyNotFound);
  });
});
