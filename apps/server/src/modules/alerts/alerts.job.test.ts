import { type ActiveAlertList, type AlertSettings, type DEFAULT_ALERT_THRESHOLDS, Messages } from '@ebs/contract';
import { describe, expect, it } from 'vitest';
import { readOutbox } from '../../mail/mailer.ts';
import { Client } from '../../testing/client.ts';
import { testDatabases } from '../../testing/databases.ts';
import { accountWithKey, type KeyHolder, rpcCall } from '../../testing/keys.ts';
import { serverFor } from '../../testing/server.ts';
import { insertTransaction } from '../ledger/ledger.test-kit.ts';
import { checkAlerts } from './alerts.job.ts';

const NETWORK = 'ethereum/mainnet';
const ALERTS = '/api/v1.0/account/alerts';
const call = (method: string, id = 1) => ({ jsonrpc: '2.0', id, method, params: [] });

describe.each(testDatabases)('alerts on $name', (database) => {
  const server = serverFor(database, { USAGE_FLUSH_SECONDS: '60' });
  const check = () => {
    const { db, deps } = server();
    return checkAlerts({ db, mailer: deps.mailer, config: deps.config });
  };
  const mailTo = async (email: string) => (await readOutbox(server().db, email)).filter((m) => /alert/.test(m.subject));

  /** An owner with a key and a member who signed up and took up the invitation. */
  async function team(): Promise<{
    holder: KeyHolder;
    ownerEmail: string;
    member: Client;
    memberEmail: string;
    memberId: string;
  }> {
    const holder = await accountWithKey(server().url, server().db, '10');
    const owner = await holder.client.get<{ email: string }>('/api/v1.0/user', holder.headers);
    const member = new Client(server().url);
    const joined = await member.signUp();
    await holder.client.post('/api/v1.0/account/user', { email: joined.email }, holder.headers);
    await member.get('/api/v1.0/account');
    return { holder, ownerEmail: owner.body.data.email, member, memberEmail: joined.email, memberId: joined.userId };
  }

  const settings = (
    patch: Partial<Record<keyof typeof DEFAULT_ALERT_THRESHOLDS, number>>,
    recipients: string[] = [],
  ) => ({
    alerts: Object.entries(patch).map(([kind, threshold]) => ({ kind, enabled: true, threshold })),
    recipients,
  });

  it('lets the owner alone set the alerts, each checked, with members as recipients only', async () => {
    const { holder, member, memberId } = await team();
    const read = await holder.client.get<AlertSettings>(ALERTS, holder.headers);
    expect(read.body.data.alerts.map((a) => [a.kind, a.enabled, a.threshold])).toEqual([
      ['LOW_CREDIT', false, 5],
      ['DAILY_SPEND', false, 10],
      ['KEY_DAILY_LIMIT', false, 80],
      ['ERROR_RATE', false, 5],
    ]);
    const saved = await holder.client.post<AlertSettings>(
      ALERTS,
      settings({ LOW_CREDIT: 9.5 }, [memberId]),
      holder.headers,
    );
    expect(saved.status).toBe(200);
    expect(saved.body.message).toBe(Messages.alertsSaved);
    expect(saved.body.data.alerts[0]).toEqual({ kind: 'LOW_CREDIT', enabled: true, threshold: 9.5 });
    expect(saved.body.data.alerts).toHaveLength(4);

    const byMember = await member.post(ALERTS, settings({ LOW_CREDIT: 1 }), holder.headers);
    expect(byMember.status).toBe(403);
    expect(byMember.body.message).toBe(Messages.ownerOnlyAlerts);
    expect((await member.get<AlertSettings>(ALERTS, holder.headers)).body.data.recipients).toEqual([memberId]);
    const stranger = new Client(server().url);
    const strangerUser = await stranger.signUp();
    for (const bad of [
      settings({ LOW_CREDIT: 1.234 }),
      settings({ ERROR_RATE: 0 }),
      settings({ KEY_DAILY_LIMIT: 101 }),
      {
        ...settings({ LOW_CREDIT: 1 }),
        alerts: [...settings({ LOW_CREDIT: 1 }).alerts, ...settings({ LOW_CREDIT: 2 }).alerts],
      },
      settings({ LOW_CREDIT: 1 }, [strangerUser.userId]),
      { alerts: [{ kind: 'MOON_PHASE', enabled: true, threshold: 1 }], recipients: [] },
    ]) {
      expect((await holder.client.post(ALERTS, bad, holder.headers)).status, JSON.stringify(bad)).toBe(400);
    }
    expect((await holder.client.get<AlertSettings>(ALERTS, holder.headers)).body.data.alerts[0]?.threshold).toBe(9.5);
  });

  it('e-mails the owner and the chosen members once when low credit starts and once when a deposit clears it', async () => {
    const { holder, ownerEmail, memberEmail, memberId } = await team();
    const { db } = server();
    await holder.client.post(ALERTS, settings({ LOW_CREDIT: 9.5 }, [memberId]), holder.headers);
    await check();
    expect(await mailTo(ownerEmail)).toHaveLength(0);

    await insertTransaction(db, {
      accountId: holder.accountId,
      type: 'WITHDRAW_RESOURCE_USAGE',
      amount: '-1',
      status: 'COMPLETED',
    });
    // Two processes judge at once: one e-mail each way.
    await Promise.all([check(), check()]);
    await check();
    const started = await mailTo(ownerEmail);
    expect(started.map((m) => m.subject)).toEqual([expect.stringMatching(/Low credit alert started/)]);
    expect(started[0]?.text).toContain('Available credit is 9.00 USD, below 9.50 USD.');
    expect(await mailTo(memberEmail)).toHaveLength(1);
    const active = await holder.client.get<ActiveAlertList>(`${ALERTS}/active`, holder.headers);
    expect(active.body.data.active).toEqual([
      {
        kind: 'LOW_CREDIT',
        subject: null,
        message: 'Available credit is 9.00 USD, below 9.50 USD.',
        since: expect.any(String),
      },
    ]);

    await insertTransaction(db, {
      accountId: holder.accountId,
      type: 'ADMIN_MANUAL_DEPOSIT',
      amount: '5',
      status: 'COMPLETED',
    });
    await Promise.all([check(), check()]);
    const mails = await mailTo(ownerEmail);
    expect(mails.map((m) => m.subject)).toEqual([
      expect.stringMatching(/Low credit alert cleared/),
      expect.stringMatching(/Low credit alert started/),
    ]);
    expect(mails[0]?.text).toContain('Available credit is 14.00 USD.');
    expect((await holder.client.get<ActiveAlertList>(`${ALERTS}/active`, holder.headers)).body.data.active).toEqual([]);
    // Short again at once: the quiet time after a stop sends no storm.
    await insertTransaction(db, {
      accountId: holder.accountId,
      type: 'WITHDRAW_RESOURCE_USAGE',
      amount: '-10',
      status: 'COMPLETED',
    });
    await check();
    expect(await mailTo(ownerEmail)).toHaveLength(2);
  });

  it('tells of a key past its share of the daily limit, of spend today and of the error rate', async () => {
    const { holder, ownerEmail } = await team();
    const { deps } = server();
    await holder.client.post(`/api/v1.0/key/${holder.keyId}/settings`, { requestsPerDay: 4 }, holder.headers);
    await holder.client.post(
      ALERTS,
      settings({ KEY_DAILY_LIMIT: 50, DAILY_SPEND: 0.0, ERROR_RATE: 10 }),
      holder.headers,
    );
    const url = holder.url(NETWORK);
    for (let i = 0; i < 2; i++) expect((await rpcCall(url, call('eth_blockNumber'))).status).toBe(200);
    // Refused by the method policy: JSON-RPC errors, not metered, not limited.
    for (let i = 0; i < 20; i++) await rpcCall(url, call('eth_sign'));
    await deps.rpc.meter.flush();
    await deps.rpc.insight.flush();
    await check();
    const active = (await holder.client.get<ActiveAlertList>(`${ALERTS}/active`, holder.headers)).body.data.active;
    expect(active.map((a) => [a.kind, a.subject, a.message]).sort()).toEqual([
      ['DAILY_SPEND', null, 'Spend today is 0.00 USD, above 0.00 USD.'],
      ['ERROR_RATE', null, '90.9% of 22 calls failed over the last 15 minutes, above 10%.'],
      ['KEY_DAILY_LIMIT', holder.keyId, 'The key "gateway key" has used 50% of its daily limit of 4 requests.'],
    ]);
    expect(await mailTo(ownerEmail)).toHaveLength(3);

    // Turned off while holding: cleared without an e-mail.
    const off = { alerts: [{ kind: 'ERROR_RATE', enabled: false, threshold: 10 }], recipients: [] };
    expect((await holder.client.post(ALERTS, off, holder.headers)).status).toBe(200);
    await check();
    expect((await holder.client.get<ActiveAlertList>(`${ALERTS}/active`, holder.headers)).body.data.active).toEqual([]);
    expect(await mailTo(ownerEmail)).toHaveLength(3);
  });
});
