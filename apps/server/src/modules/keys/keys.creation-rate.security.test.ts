import { API_KEYS_CREATED_PER_HOUR, type CreatedApiKey, Messages } from '@ebs/contract';
import { describe, expect, it } from 'vitest';
import { testDatabases } from '../../testing/databases.ts';
import { serverFor } from '../../testing/server.ts';
import { lockAccountRow } from '../accounts/account-rows.service.ts';
import { KeysService } from './keys.service.ts';
import { expectRefused, KEY, keyUser, liveKeyCount } from './keys.test-kit.ts';

const HOUR_MS = 3_600_000;

describe.each(testDatabases)('API key creations per hour on $name', (database) => {
  const server = serverFor(database);

  /** Every key row of the account, deleted ones included: a refused create must add none. */
  const keyRows = async (accountId: string) =>
    (await server().db.selectFrom('api_keys').select('id').where('account_id', '=', accountId).execute()).length;

  /** The hour's allowance spent one create after another; answers the keys, oldest first. */
  async function spendTheHour(m: Awaited<ReturnType<typeof keyUser>>): Promise<CreatedApiKey[]> {
    const created: CreatedApiKey[] = [];
    for (let i = 0; i < API_KEYS_CREATED_PER_HOUR; i++) created.push(await m.createOk(`key ${i + 1}`));
    return created;
  }

  it(`refuses key ${API_KEYS_CREATED_PER_HOUR + 1} of the hour with 429 and a Retry-After, creating nothing`, async () => {
    const m = await keyUser(server());
    await spendTheHour(m);

    const refused = await m.create('one too many');
    expectRefused(refused, 429, Messages.apiKeyHourlyLimit);
    expect(refused.body.error).toBe('Too Many Requests');
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(HOUR_MS / 1000 - 60);
    expect(retryAfter).toBeLessThanOrEqual(HOUR_MS / 1000);
    expectRefused(await m.c.post(KEY, { name: 'from the account area' }, m.h), 429, Messages.apiKeyHourlyLimit);

    expect(await keyRows(m.accountId)).toBe(API_KEYS_CREATED_PER_HOUR);
    // Another account of the same user has an hour of its own.
    const other = { 'ebs-account-id': await m.newAccount('Other') };
    expect((await m.create('elsewhere', other)).status).toBe(200);
  });

  it('counts deleted keys toward the hour: deleting and creating again does not escape it', async () => {
    const m = await keyUser(server());
    const created = await spendTheHour(m);
    for (const key of created.slice(0, 5)) {
      await m.post(`${key.id}/deactivate`);
      expect((await m.remove(key.id)).status).toBe(200);
    }

    expectRefused(await m.create('replacement'), 429, Messages.apiKeyHourlyLimit);

    expect(await liveKeyCount(server(), m.accountId)).toBe(API_KEYS_CREATED_PER_HOUR - 5);
    expect(await keyRows(m.accountId)).toBe(API_KEYS_CREATED_PER_HOUR);
  });

  it('creates again once the oldest key of the hour is an hour old', async () => {
    const m = await keyUser(server());
    const created = await spendTheHour(m);
    const oldest = Date.parse(created[0]?.createdAt ?? '');
    const at = (ms: number) => new KeysService(server().db, lockAccountRow, undefined, () => new Date(ms));

    const early = at(oldest + HOUR_MS - 30_000).create(m.accountId, m.userId, 'too early');
    await expect(early).rejects.toMatchObject({
      statusCode: 429,
      message: Messages.apiKeyHourlyLimit,
      headers: { 'retry-after': '30' },
    });
    expect(await keyRows(m.accountId)).toBe(API_KEYS_CREATED_PER_HOUR);

    const later = await at(oldest + HOUR_MS + 1).create(m.accountId, m.userId, 'an hour later');
    expect(later.name).toBe('an hour later');
    expect(await keyRows(m.accountId)).toBe(API_KEYS_CREATED_PER_HOUR + 1);
  });

  it(`creates exactly ${API_KEYS_CREATED_PER_HOUR} of ${API_KEYS_CREATED_PER_HOUR + 5} creates sent at once`, async () => {
    const m = await keyUser(server());

    const answers = await Promise.all(
      Array.from({ length: API_KEYS_CREATED_PER_HOUR + 5 }, (_, i) => m.create(`racer ${i}`)),
    );

    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(API_KEYS_CREATED_PER_HOUR);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
    for (const refused of answers.filter((a) => a.status === 429)) {
      expect(refused.body.message).toBe(Messages.apiKeyHourlyLimit);
    }
    expect(await keyRows(m.accountId)).toBe(API_KEYS_CREATED_PER_HOUR);
  });
});
