import { type AccountSummary, type ActiveAlertList, ALERT_KINDS, type AlertSettings } from '@ebs/contract';
import { describe, expect, it } from 'vitest';
import { readOutbox } from '../../mail/mailer.ts';
import { Client } from '../../testing/client.ts';
import { testDatabases } from '../../testing/databases.ts';
import { serverFor } from '../../testing/server.ts';
import { checkAlerts } from './alerts.job.ts';

const ALERTS = '/api/v1.0/account/alerts';
const AT_80 = /Spending cap 80% alert started on "capped"/;
const AT_100 = /Spending cap 100% alert started on "capped"/;

describe.each(testDatabases)('spending cap alerts on $name', (database) => {
  const server = serverFor(database);
  const check = () => {
    const { db, deps } = server();
    return checkAlerts({ db, mailer: deps.mailer, config: deps.config });
  };
  const subjects = async (email: string) =>
    (await readOutbox(server().db, email)).filter((m) => /alert/.test(m.subject)).map((m) => m.subject);

  /** An owner with a new account named "capped", and what the tests do with it. */
  async function cappedAccount() {
    const owner = new Client(server().url);
    const { email } = await owner.signUp();
    const accountId = (await owner.post<AccountSummary>('/api/v1.0/account', { accountName: 'capped' })).body.data.id;
    const h = { 'ebs-account-id': accountId };
    const setCap = async (monthlyCapUsd: string | null) =>
      expect(
        (
          await owner.post(
            '/api/v1.0/account/updateAccountSettings',
            { settingName: 'spendingCap', fields: { monthlyCapUsd } },
            h,
          )
        ).status,
      ).toBe(200);
    /** RPC usage of a day that costs `usd` (the first of this month by default). */
    const spend = async (usd: string, date = `${new Date().toISOString().slice(0, 7)}-01`) => {
      await server()
        .db.insertInto('account_resource_usage')
        .values({
          account_id: accountId,
          api_key_id: null,
          resource_name: 'RPC_API_ETHEREUM_MAINNET',
          date,
          usage: 1,
          compute_units: 1,
          unit_price: usd,
          status: 'BILLED',
        })
        .execute();
    };
    const active = async () =>
      (await owner.get<ActiveAlertList>(`${ALERTS}/active`, h)).body.data.active.map((a) => [
        a.kind,
        a.subject,
        a.message,
      ]);
    return { owner, email, h, setCap, spend, active };
  }

  it('e-mails the owner and the recipients once at 80% and once at the cap, and clears both when the cap is raised', async () => {
    const a = await cappedAccount();
    const member = new Client(server().url);
    const joined = await member.signUp();
    await a.owner.post('/api/v1.0/account/user', { email: joined.email }, a.h);
    await member.get('/api/v1.0/account');
    const alertsOff = { alerts: [{ kind: 'LOW_CREDIT', enabled: false, threshold: 5 }], recipients: [joined.userId] };
    expect((await a.owner.post(ALERTS, alertsOff, a.h)).status).toBe(200);
    await a.setCap('25');

    await a.spend('10');
    await a.spend('100', '2000-01-31');
    await check();
    expect(await subjects(a.email)).toEqual([]);

    await a.spend('10');
    // Two processes judge at once: one e-mail each.
    await Promise.all([check(), check()]);
    await check();
    expect(await subjects(a.email)).toEqual([expect.stringMatching(AT_80)]);
    expect(await subjects(joined.email)).toEqual([expect.stringMatching(AT_80)]);
    const at80 = "This month's RPC usage is 20.00 USD, 80% of the monthly spending cap of 25.00 USD.";
    expect((await readOutbox(server().db, a.email))[0]?.text).toContain(at80);
    expect(await a.active()).toEqual([['SPENDING_CAP', '80', at80]]);

    await a.spend('5.5');
    await check();
    await check();
    const reached =
      "This month's RPC usage reached the monthly spending cap of 25.00 USD: RPC calls are refused until the cap is raised in Billing.";
    expect(await subjects(a.email)).toEqual([expect.stringMatching(AT_100), expect.stringMatching(AT_80)]);
    expect(await subjects(joined.email)).toHaveLength(2);
    expect((await readOutbox(server().db, a.email))[0]?.text).toContain(reached);
    expect(await a.active()).toEqual([
      ['SPENDING_CAP', '80', "This month's RPC usage is 25.50 USD, 102% of the monthly spending cap of 25.00 USD."],
      ['SPENDING_CAP', '100', reached],
    ]);

    await a.setCap('100');
    await check();
    await check();
    const mails = await readOutbox(server().db, a.email);
    expect(mails.slice(0, 2).map((m) => m.subject)).toEqual([
      expect.stringMatching(/Spending cap 100% alert cleared on "capped"/),
      expect.stringMatching(/Spending cap 80% alert cleared on "capped"/),
    ]);
    expect(mails[0]?.text).toContain(
      "This month's RPC usage is 25.50 USD, 25.5% of the monthly spending cap of 100.00 USD.",
    );
    expect(await subjects(joined.email)).toHaveLength(4);
    expect(await a.active()).toEqual([]);
    // Not one of the alerts the owner sets.
    const settings = (await a.owner.get<AlertSettings>(ALERTS, a.h)).body.data;
    expect(settings.alerts.map((s) => s.kind)).toEqual([...ALERT_KINDS]);
  });

  it('watches a capped account that never saved its alerts, and clears its alerts quietly once the cap is removed', async () => {
    const a = await cappedAccount();
    await a.setCap('10');
    await a.spend('12');
    await check();
    expect(await subjects(a.email)).toEqual([expect.stringMatching(AT_100), expect.stringMatching(AT_80)]);

    await a.setCap(null);
    await check();
    expect(await a.active()).toEqual([]);
    expect(await subjects(a.email)).toHaveLength(2);
  });
});
