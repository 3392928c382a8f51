import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/database.ts';
import { testDatabases } from '../../testing/databases.ts';
import * as store from './identity.store.ts';

describe.each(testDatabases)('identity store on $name', (database) => {
  let db: Db;
  let close: () => Promise<void>;
  let n = 0;
  const newUser = () =>
    store.insertUser(db, {
      email: `store-${++n}-${database.name}@example.com`,
      givenName: 'S',
      familyName: 'T',
      passwordHash: 'h',
      referralCode: null,
    });

  beforeAll(async () => {
    ({ db, close } = await database.open());
  });
  afterAll(() => close?.());

  it('finds users by e-mail and id, and refuses a second user with the same e-mail', async () => {
    const id = await newUser();
    const user = await store.findUserById(db, id);
    expect(user).toMatchObject({ id, givenName: 'S', confirmedAt: null });
    expect((await store.findUserByEmail(db, user!.email))?.id).toBe(id);
    await expect(
      store.insertUser(db, {
        email: user!.email,
        givenName: 'x',
        familyName: 'y',
        passwordHash: 'h',
        referralCode: null,
      }),
    ).rejects.toMatchObject({ code: '23505' });
  });

  it('returns only the newest code of a purpose, with its age and expiry', async () => {
    const id = await newUser();
    await store.insertCode(db, { userId: id, purpose: 'SIGN_UP', codeHash: 'aa', ttlSeconds: 60 });
    await sql`update verification_codes set created_at = now() - interval '10 minutes' where user_id = ${id}`.execute(
      db,
    );
    await store.insertCode(db, { userId: id, purpose: 'SIGN_UP', codeHash: 'bb', ttlSeconds: 60 });
    await store.insertCode(db, { userId: id, purpose: 'RESET_PASSWORD', codeHash: 'cc', ttlSeconds: 60 });
    const newest = await store.newestCode(db, id, 'SIGN_UP');
    expect(newest).toMatchObject({ codeHash: 'bb', attempts: 0, used: false, expired: false });
    expect(newest!.ageSeconds).toBeLessThan(5);
  });

  it('uses a code once only, even when two requests race', async () => {
    const id = await newUser();
    await store.insertCode(db, { userId: id, purpose: 'RESET_PASSWORD', codeHash: 'dd', ttlSeconds: 60 });
    const code = await store.newestCode(db, id, 'RESET_PASSWORD');
    const results = await Promise.all([store.useCode(db, code!.id), store.useCode(db, code!.id)]);
    expect(results.sort()).toEqual([false, true]);
    expect((await store.newestCode(db, id, 'RESET_PASSWORD'))?.used).toBe(true);
  });

  it('counts failed attempts on a code', async () => {
    const id = await newUser();
    await store.insertCode(db, { userId: id, purpose: 'SIGN_UP', codeHash: 'ee', ttlSeconds: 60 });
    const code = await store.newestCode(db, id, 'SIGN_UP');
    await store.countFailedAttempt(db, code!.id);
    await store.countFailedAttempt(db, code!.id);
    expect((await store.newestCode(db, id, 'SIGN_UP'))?.attempts).toBe(2);
  });

  it('tracks refresh tokens by hash and revokes every session of a user but one', async () => {
    const id = await newUser();
    const kept = await store.insertSession(db, id, 3600);
    const other = await store.insertSession(db, id, 3600);
    await store.insertRefreshToken(db, other, 'hash-1');
    expect(await store.findRefreshToken(db, 'hash-1')).toMatchObject({
      sessionId: other,
      userId: id,
      usedSecondsAgo: null,
      sessionLive: true,
    });
    await store.markRefreshTokenUsed(db, 'hash-1');
    expect((await store.findRefreshToken(db, 'hash-1'))?.usedSecondsAgo).toBeGreaterThanOrEqual(0);
    await store.revokeUserSessions(db, id, kept);
    expect(await store.isSessionLive(db, kept)).toBe(true);
    expect(await store.isSessionLive(db, other)).toBe(false);
    expect((await store.findRefreshToken(db, 'hash-1'))?.sessionLive).toBe(false);
  });

  it('treats an expired session as not live', async () => {
    const id = await newUser();
    const session = await store.insertSession(db, id, 1);
    await sql`update sessions set expires_at = now() - interval '1 second' where id = ${session}`.execute(db);
    expect(await store.isSessionLive(db, session)).toBe(false);
  });
});
