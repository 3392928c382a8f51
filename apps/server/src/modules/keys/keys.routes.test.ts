import { API_KEYS_PER_ACCOUNT, type CreatedApiKey, Messages } from '@ebs/contract';
import { describe, expect, it } from 'vitest';
import { testDatabases } from '../../testing/databases.ts';
import { serverFor } from '../../testing/server.ts';
import { expectRefused, KEY, keyRow, keyUser, liveKeyCount, sha256 } from './keys.test-kit.ts';

describe.each(testDatabases)('API keys on $name', (database) => {
  const server = serverFor(database);

  it('creates a key with POST /key/ {apiKeyName}: a 256-bit base64url secret, shown once, stored only as its SHA-256', async () => {
    const m = await keyUser(server());

    const answer = await m.create('Deploy bot');

    expect(answer.status).toBe(200);
    expect(answer.body.message).toBe('Deploy bot has been created.');
    const created = answer.body.data;
    expect(created).toMatchObject({
      apiKeyId: created.id,
      name: 'Deploy bot',
      apiKeyName: 'Deploy bot',
      status: 'ACTIVE',
      key: { keyId: created.id },
    });
    expect(created.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(created.key.key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(created.key.key, 'base64url')).toHaveLength(32);

    const stored = await keyRow(server(), created.id);
    expect(stored).toMatchObject({
      account_id: m.accountId,
      name: 'Deploy bot',
      key_hash: sha256(created.key.key),
      status: 'ACTIVE',
      deleted_at: null,
      created_by: m.userId,
    });
    expect(JSON.stringify(stored)).not.toContain(created.key.key);

    const listed = await m.list();
    expect(listed.apiKeys).toEqual([
      {
        id: created.id,
        apiKeyId: created.id,
        name: 'Deploy bot',
        apiKeyName: 'Deploy bot',
        status: 'ACTIVE',
        createdAt: created.createdAt,
        updatedAt: created.updatedAt,
      },
    ]);
    expect(JSON.stringify(listed)).not.toContain(created.key.key);
  });

  it('creates the same way with POST /key {name}, trimming the name', async () => {
    const m = await keyUser(server());

    const answer = await m.c.post<CreatedApiKey>(KEY, { name: '  From the account area ' }, m.h);

    expect(answer.status).toBe(200);
    expect(answer.body.message).toBe('From the account area has been created.');
    expect(answer.body.data).toMatchObject({ name: 'From the account area', status: 'ACTIVE' });
    expect(answer.body.data.key.key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await keyRow(server(), answer.body.data.id)).key_hash).toBe(sha256(answer.body.data.key.key));
  });

  it('gives every key its own secret', async () => {
    const m = await keyUser(server());
    const keys = await Promise.all(['a', 'b', 'c', 'd'].map((name) => m.createOk(name)));
    expect(new Set(keys.map((k) => k.key.key)).size).toBe(4);
    const hashes = await Promise.all(keys.map(async (k) => (await keyRow(server(), k.id)).key_hash));
    expect(new Set(hashes).size).toBe(4);
  });

  it('lists the live keys oldest first, paged by limit and offset, with the total', async () => {
    const m = await keyUser(server());
    const ids: string[] = [];
    for (const name of ['one', 'two', 'three']) ids.push((await m.createOk(name)).id);

    const first = await m.list('limit=2&offset=0');
    expect(first).toMatchObject({ offset: 0, limit: 2, total: 3, count: 2 });
    expect(first.apiKeys.map((k) => k.name)).toEqual(['one', 'two']);
    const second = await m.list('limit=2&offset=2');
    expect(second).toMatchObject({ offset: 2, limit: 2, total: 3, count: 1 });
    expect(second.apiKeys.map((k) => k.id)).toEqual([ids[2]]);
    // The spec's default: limit 10 at offset 0.
    expect(await m.list('')).toMatchObject({ offset: 0, limit: 10, total: 3, count: 3 });

    expectRefused(await m.c.get(`${KEY}?limit=101&offset=0`, m.h), 400, 'querystring.limit must be <= 100');
    expectRefused(await m.c.get(`${KEY}?limit=10&offset=-1`, m.h), 400, 'querystring.offset must be >= 0');
    expectRefused(await m.c.get(`${KEY}?page=2`, m.h), 400, "querystring must not have property 'page'");
  });

  it('renames a key at any time: "{name} has been updated.", and moves updatedAt', async () => {
    const m = await keyUser(server());
    const created = await m.createOk('old name');

    const answer = await m.post(`${created.id}/updateName`, { apiKeyName: ' new name ' });

    expect(answer.status).toBe(200);
    expect(answer.body.message).toBe('new name has been updated.');
    expect(answer.body.data).toMatchObject({ id: created.id, name: 'new name', apiKeyName: 'new name' });
    expect(Date.parse(answer.body.data.updatedAt)).toBeGreaterThan(Date.parse(created.updatedAt));
    expect((await m.list()).apiKeys.map((k) => k.name)).toEqual(['new name']);
    // Renaming an INACTIVE key works too.
    await m.post(`${created.id}/deactivate`);
    expect((await m.post(`${created.id}/updateName`, { apiKeyName: 'newer' })).body.data).toMatchObject({
      name: 'newer',
      status: 'INACTIVE',
    });
  });

  it('deactivates and activates with no body, an empty object or an empty JSON body, moving updatedAt each time', async () => {
    const m = await keyUser(server());
    const created = await m.createOk('switch');
    const updatedAt = async () => (await keyRow(server(), created.id)).updated_at.getTime();
    let before = await updatedAt();

    const deactivated = await m.post(`${created.id}/deactivate`);
    expect(deactivated.status).toBe(200);
    expect(deactivated.body.message).toBe('API  key has been deactivated.');
    expect(deactivated.body.data.status).toBe('INACTIVE');
    expect((await m.list()).apiKeys[0]?.status).toBe('INACTIVE');
    expect(await updatedAt()).toBeGreaterThan(before);
    before = await updatedAt();

    const activated = await m.post(`${created.id}/activate`, {});
    expect(activated.status).toBe(200);
    expect(activated.body.message).toBe('API key has been activated.');
    expect((await m.list()).apiKeys[0]?.status).toBe('ACTIVE');
    expect(await updatedAt()).toBeGreaterThan(before);

    // A JSON content type with nothing after it, as some clients send an "empty body".
    const emptyJson = await fetch(`${server().url}${KEY}/${created.id}/deactivate`, {
      method: 'POST',
      headers: { ...m.h, authorization: `Bearer ${m.c.idToken}`, 'content-type': 'application/json' },
      body: '',
    });
    expect(emptyJson.status).toBe(200);
    expect(((await emptyJson.json()) as { message: string }).message).toBe('API  key has been deactivated.');
    expect((await keyRow(server(), created.id)).status).toBe('INACTIVE');
  });

  it('refuses to delete an ACTIVE key, then deletes it once INACTIVE: gone from the list, its row kept', async () => {
    const m = await keyUser(server());
    const keep = await m.createOk('keep');
    const created = await m.createOk('to delete');

    expectRefused(await m.remove(created.id), 409, Messages.apiKeyDeleteActive);
    expect(await keyRow(server(), created.id)).toMatchObject({ status: 'ACTIVE', deleted_at: null });
    expect((await m.list()).total).toBe(2);

    await m.post(`${created.id}/deactivate`);
    const deleted = await m.remove(created.id);

    expect(deleted.status).toBe(200);
    expect(deleted.body.message).toBe('API key has been deleted.');
    const listed = await m.list();
    expect(listed.apiKeys.map((k) => k.id)).toEqual([keep.id]);
    expect(listed.total).toBe(1);
    // The row stays for the usage records that name it, marked deleted.
    expect((await keyRow(server(), created.id)).deleted_at).toBeInstanceOf(Date);
  });

  it(`holds at most ${API_KEYS_PER_ACCOUNT} live keys per account, even when creates race`, async () => {
    const m = await keyUser(server());
    const preset = API_KEYS_PER_ACCOUNT - 2;
    // Made before the last hour, so that only the cap on live keys is met.
    const earlier = new Date(Date.now() - 2 * 3_600_000);
    await server()
      .db.insertInto('api_keys')
      .values(
        Array.from({ length: preset }, (_, i) => ({
          account_id: m.accountId,
          name: `preset ${i}`,
          key_hash: sha256(`preset ${m.accountId} ${i}`),
          created_at: earlier,
        })),
      )
      .execute();

    const answers = await Promise.all(Array.from({ length: 5 }, (_, i) => m.create(`racer ${i}`)));

    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 400, 400, 400]);
    for (const refused of answers.filter((a) => a.status !== 200)) {
      expect(refused.body.message).toBe(Messages.apiKeyLimit);
    }
    expect(await liveKeyCount(server(), m.accountId)).toBe(API_KEYS_PER_ACCOUNT);
    expect((await m.list()).total).toBe(API_KEYS_PER_ACCOUNT);
    expectRefused(await m.c.post(KEY, { name: 'one more' }, m.h), 400, Messages.apiKeyLimit);

    // A deleted key no longer counts.
    const last = answers.find((a) => a.status === 200)?.body.data as CreatedApiKey;
    await m.post(`${last.id}/deactivate`);
    expect((await m.remove(last.id)).status).toBe(200);
    expect((await m.create('replacement')).status).toBe(200);
  });
});
