import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import type { Db } from '../db/database.ts';
import { outboxMailer } from '../mail/mailer.ts';
import { findAccountDetails, isFeatureEnabled } from '../modules/accounts/accounts.test-kit.ts';
import { insertSession, twoFactorStore as twoFactor } from '../modules/identity/identity.test-kit.ts';
import { LocalCardProcessor } from '../modules/processor/local-processor.ts';
import { findSetting } from '../modules/settings/settings.test-kit.ts';
import { findUserInfo } from '../modules/users/users.service.ts';
import { testDatabases } from '../testing/databases.ts';
import { runCommand } from './commands.ts';
import { buildJobs } from './job-registry.ts';

describe.each(testDatabases)('admin commands on $name', (database) => {
  let db: Db;
  let close: () => Promise<void>;
  let userId: string;
  let accountId: string;

  beforeAll(async () => {
    ({ db, close } = await database.open());
    userId = (
      await db
        .insertInto('users')
        .values({
          email: 'amb@example.com',
          given_name: 'A',
          family_name: 'B',
          password_hash: 'x',
          referral_code: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    accountId = (
      await db
        .insertInto('accounts')
        .values({ name: 'cli', created_by: userId, customer_id: null })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    await db
      .insertInto('account_members')
      .values({ account_id: accountId, user_id: userId, role_name: 'OWNER' })
      .execute();
  });
  afterAll(() => close?.());

  it('enables and disables TOKEN_FORWARDING for an account', async () => {
    await runCommand(db, ['feature', 'enable', 'TOKEN_FORWARDING', '--account', accountId]);
    expect(await isFeatureEnabled(db, accountId, 'TOKEN_FORWARDING')).toBe(true);
    const off = await runCommand(db, ['feature', 'disable', 'TOKEN_FORWARDING', '--account', accountId]);
    expect(off.json).toEqual({ accountId, featureName: 'TOKEN_FORWARDING', enabled: false });
    expect(await isFeatureEnabled(db, accountId, 'TOKEN_FORWARDING')).toBe(false);
  });

  it('grants the ambassador role with a readable code, keeping the code on a new rate', async () => {
    const first = (await runCommand(db, ['ambassador', 'grant', '--email', 'AMB@example.com', '--rate', '0.1']))
      .json as {
      code: string;
    };
    expect(first.code).toMatch(/^[A-HJ-NP-Z2-9]{8}$/);
    const second = (await runCommand(db, ['ambassador', 'grant', '--email', 'amb@example.com', '--rate', '0.25'])).json;
    expect(second).toEqual({ email: 'amb@example.com', code: first.code, rewardRate: 0.25 });
    expect((await findUserInfo(db, userId))?.ambassador).toMatchObject({
      code: first.code,
      rewardRate: 0.25,
      balance: 0,
    });
  });

  it('turns two-factor sign-in off for a user who lost the app and the recovery codes; the sessions stay', async () => {
    const lost = (
      await db
        .insertInto('users')
        .values({
          email: 'lost@example.com',
          given_name: 'L',
          family_name: 'D',
          password_hash: 'x',
          referral_code: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    await twoFactor.saveUnconfirmedSecret(db, lost, 'sealed-secret');
    await twoFactor.confirmSecret(db, lost, 1);
    await twoFactor.setMfaEnabled(db, lost, true);
    await twoFactor.replaceRecoveryCodes(db, lost, ['hash-1', 'hash-2']);
    await twoFactor.insertChallenge(db, lost, 'challenge-hash', 300);
    const sessionId = await insertSession(db, lost, 3600);
    // Another user's two-factor sign-in is left alone.
    await twoFactor.saveUnconfirmedSecret(db, userId, 'sealed-other');
    await twoFactor.setMfaEnabled(db, userId, true);
    const rowsOf = async (
      table: 'two_factor_secrets' | 'two_factor_recovery_codes' | 'sign_in_challenges',
      id: string,
    ) => (await db.selectFrom(table).select('user_id').where('user_id', '=', id).execute()).length;

    const off = await runCommand(db, ['mfa', 'disable', '--email', ' Lost@Example.com', '--json']);
    expect(off.json).toEqual({ email: 'lost@example.com', mfaEnabled: false, wasEnabled: true });
    expect(off.text).toBe(
      'Two-factor sign-in is off for lost@example.com: the authenticator secret and recovery codes are forgotten',
    );
    expect(await twoFactor.isMfaEnabled(db, lost)).toBe(false);
    expect(await rowsOf('two_factor_secrets', lost)).toBe(0);
    expect(await rowsOf('two_factor_recovery_codes', lost)).toBe(0);
    expect(await rowsOf('sign_in_challenges', lost)).toBe(0);
    const session = await db.selectFrom('sessions').select(['id', 'revoked_at']).where('user_id', '=', lost).execute();
    expect(session).toEqual([{ id: sessionId, revoked_at: null }]);
    expect(await twoFactor.isMfaEnabled(db, userId)).toBe(true);
    expect(await rowsOf('two_factor_secrets', userId)).toBe(1);

    const again = await runCommand(db, ['mfa', 'disable', '--email', 'lost@example.com']);
    expect(again.json).toEqual({ email: 'lost@example.com', mfaEnabled: false, wasEnabled: false });
    expect(again.text).toBe('Two-factor sign-in was already off for lost@example.com');
    await twoFactor.turnOffTwoFactor(db, userId);
  });

  it('runs a scheduled job now, and names the known ones for an unknown job', async () => {
    const config = loadConfig({});
    const jobs = buildJobs({
      db,
      config,
      provider: new LocalCardProcessor(db, config.PUBLIC_URL),
      mailer: outboxMailer(db, { info() {} }),
    });
    expect((await runCommand(db, ['jobs', 'run', 'reconcile'], jobs)).json).toEqual({ job: 'reconcile', result: 0 });
    expect((await runCommand(db, ['jobs', 'run', 'autopay'], jobs)).json).toEqual({
      job: 'autopay',
      result: { charged: 0, failed: 0, errors: [], limited: [] },
    });
    await expect(runCommand(db, ['jobs', 'run', 'nightly'], jobs)).rejects.toThrow(
      'Unknown job "nightly". Known: autopay, reconcile, ambassadors, billing, cleanup',
    );
  });

  it('sets ADD_PAYMENT_CARD and DEPOSIT from --json, in both spellings', async () => {
    const mandatory = await runCommand(db, ['setting', 'set', 'ADD_PAYMENT_CARD', '--json', '{"mandatory":true}']);
    expect(mandatory.json).toEqual({ name: 'ADD_PAYMENT_CARD', settings: { mandatory: true } });
    expect((await findSetting(db, 'ADD_PAYMENT_CARD'))?.settings).toEqual({ mandatory: true });
    await runCommand(db, ['setting', 'set', 'ADD_PAYMENT_CARD', '--json={"mandatory":false}']);
    expect((await findSetting(db, 'ADD_PAYMENT_CARD'))?.settings).toEqual({ mandatory: false });
    await runCommand(db, ['setting', 'set', 'DEPOSIT', '--json', '{"minAmount":5}']);
    expect((await findSetting(db, 'DEPOSIT'))?.settings).toEqual({ minAmount: 5 });
    await runCommand(db, ['setting', 'set', 'DEPOSIT', '--json', '{"minAmount":1}']);
  });

  it.each([
    [['setting', 'set', 'PRICE', '--json', '{}'], /Unknown setting "PRICE". Known: DEPOSIT, ADD_PAYMENT_CARD/],
    [['setting', 'set', 'DEPOSIT', '--json', '{minAmount:5}'], /--json must be the setting's value as JSON/],
    [['setting', 'set', 'DEPOSIT'], /--json must be the setting's value as JSON/],
    [['setting', 'set', 'DEPOSIT', '--json', '{"minAmount":-1}'], /Invalid DEPOSIT value: \/minAmount/],
    [['setting', 'set', 'ADD_PAYMENT_CARD', '--json', '{"mandatory":"yes"}'], /Invalid ADD_PAYMENT_CARD value/],
    [['setting', 'set', 'ADD_PAYMENT_CARD', '--json', '{"mandatory":true,"x":1}'], /Invalid ADD_PAYMENT_CARD value/],
  ])('refuses the setting %j and changes nothing', async (args, message) => {
    const before = await db.selectFrom('settings').select(['name', 'value']).orderBy('name').execute();
    await expect(runCommand(db, args)).rejects.toThrow(message);
    expect(await db.selectFrom('settings').select(['name', 'value']).orderBy('name').execute()).toEqual(before);
  });

  it('lists accounts with owner, status and balance', async () => {
    const { json } = (await runCommand(db, ['accounts', 'list'])) as { json: Array<{ balance: string }> };
    expect(json).toEqual([
      { id: accountId, name: 'cli', owner: 'amb@example.com', status: 'SUSPENDED', balance: json[0]?.balance },
    ]);
    expect(Number(json[0]?.balance)).toBeGreaterThanOrEqual(0);
  });

  it('deposits to an account as ADMIN_MANUAL_DEPOSIT, with the note, and the balance follows', async () => {
    const { json } = await runCommand(db, [
      'deposit',
      '--account',
      accountId,
      '--amount',
      '12.345678',
      '--note',
      'goodwill',
    ]);
    expect(json).toMatchObject({ accountId, amount: '12.345678', note: 'goodwill' });
    const rows = await db
      .selectFrom('account_transactions')
      .select(['type', sql<string>`amount::text`.as('amount'), 'status', 'metadata'])
      .where('account_id', '=', accountId)
      .execute();
    expect(rows).toEqual([
      { type: 'ADMIN_MANUAL_DEPOSIT', amount: '12.345678', status: 'COMPLETED', metadata: { note: 'goodwill' } },
    ]);
    expect(await findAccountDetails(db, accountId, userId)).toMatchObject({ balance: 12.345678, status: 'ACTIVE' });
  });

  it.each([
    [['deposit', '--account', '00000000-0000-4000-8000-000000000000', '--amount', '5', '--note', 'x'], /No account/],
    [['deposit', '--amount', '5', '--note', 'x'], /--account must be an account id/],
    [['deposit', '--account', 'ACCOUNT', '--amount', '0', '--note', 'x'], /--amount must be a positive number/],
    [['deposit', '--account', 'ACCOUNT', '--amount=-5', '--note', 'x'], /--amount must be a positive number/],
    [['deposit', '--account', 'ACCOUNT', '--amount', 'ten', '--note', 'x'], /--amount must be a positive number/],
    [['deposit', '--account', 'ACCOUNT', '--amount', '1.1234567', '--note', 'x'], /--amount must be a positive number/],
    [['deposit', '--account', 'ACCOUNT', '--amount', '5'], /--note is required/],
  ])('refuses the deposit %j and posts nothing', async (args, message) => {
    const before = await db.selectFrom('account_transactions').select('id').execute();
    await expect(
      runCommand(
        db,
        args.map((a) => (a === 'ACCOUNT' ? accountId : a)),
      ),
    ).rejects.toThrow(message);
    expect(await db.selectFrom('account_transactions').select('id').execute()).toHaveLength(before.length);
  });

  it.each([
    [['feature', 'enable', 'NOPE', '--account', '00000000-0000-4000-8000-000000000000'], /Unknown feature "NOPE"/],
    [['feature', 'enable', 'TOKEN_FORWARDING', '--account', 'x'], /--account must be an account id/],
    [['feature', 'enable', 'TOKEN_FORWARDING', '--account', '00000000-0000-4000-8000-000000000000'], /No account/],
    [['ambassador', 'grant', '--email', 'nobody@example.com', '--rate', '0.1'], /No user nobody@example.com/],
    [['ambassador', 'grant', '--email', 'amb@example.com', '--rate', '2'], /--rate must be a fraction/],
    [['mfa', 'disable', '--email', 'nobody@example.com'], /No user nobody@example.com/],
    [['mfa', 'disable'], /--email is required/],
    [['mfa', 'enable', '--email', 'amb@example.com'], /Unknown command "mfa enable"/],
    [['launch', 'rockets'], /Unknown command "launch rockets"/],
  ])('refuses %j', async (args, message) => {
    await expect(runCommand(db, args)).rejects.toThrow(message);
  });
});
