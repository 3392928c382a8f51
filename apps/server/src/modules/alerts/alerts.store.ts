import {
  type ActiveAlert,
  type ActiveAlertKind,
  ALERT_KINDS,
  type AlertSetting,
  type AlertSettings,
  DEFAULT_ALERT_THRESHOLDS,
} from '@ebs/contract';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

/** Every kind, as saved where it was, else off at its default threshold. */
function withDefaults(saved: AlertSetting[]): AlertSetting[] {
  return ALERT_KINDS.map(
    (kind) => saved.find((a) => a.kind === kind) ?? { kind, enabled: false, threshold: DEFAULT_ALERT_THRESHOLDS[kind] },
  );
}

export async function findAlertSettings(db: Db, accountId: string): Promise<AlertSettings> {
  const row = await db
    .selectFrom('account_alerts')
    .select(['settings', 'recipients'])
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return {
    alerts: withDefaults((row?.settings as AlertSetting[] | undefined) ?? []),
    recipients: (row?.recipients as string[] | undefined) ?? [],
  };
}

export async function saveAlertSettings(db: Db, accountId: string, settings: AlertSettings): Promise<AlertSettings> {
  const alerts = withDefaults(settings.alerts);
  const values = {
    settings: JSON.stringify(alerts),
    recipients: JSON.stringify(settings.recipients),
    any_enabled: alerts.some((a) => a.enabled),
  };
  await db
    .insertInto('account_alerts')
    .values({ account_id: accountId, ...values })
    .onConflict((oc) => oc.column('account_id').doUpdateSet({ ...values, updated_at: sql`now()` }))
    .execute();
  return { alerts, recipients: settings.recipients };
}

export interface WatchedAccount {
  accountId: string;
  alerts: AlertSetting[];
  recipients: string[];
}

/**
 * The accounts with an alert on, with an alert that still holds (to be cleared once turned off),
 * or among `alsoIds` (those with a spending cap, whose alerts hold without being turned on). An
 * account that never saved its alerts has them all off and no recipients besides the owner.
 */
export async function watchedAccounts(db: Db, alsoIds: string[]): Promise<WatchedAccount[]> {
  const { rows } = await sql<{ account_id: string; settings: unknown; recipients: unknown }>`
    select w.account_id, a.settings, a.recipients
    from (
      select account_id from account_alerts where any_enabled
      union select account_id from account_alert_states where holding
      union select unnest(${alsoIds}::uuid[])
    ) as w
    left join account_alerts as a on a.account_id = w.account_id
    order by w.account_id`.execute(db);
  return rows.map((r) => ({
    accountId: r.account_id,
    alerts: withDefaults((r.settings as AlertSetting[] | null) ?? []),
    recipients: (r.recipients as string[] | null) ?? [],
  }));
}

export interface AlertState {
  accountId: string;
  kind: ActiveAlertKind;
  /** A key's id, the share of the spending cap, or '' for the account. */
  subject: string;
  message: string;
}

/** The alerts that hold now, of some accounts. */
export async function holdingAlerts(db: Db, accountIds: string[]): Promise<AlertState[]> {
  if (accountIds.length === 0) return [];
  const rows = await db
    .selectFrom('account_alert_states')
    .select(['account_id', 'kind', 'subject', 'message'])
    .where('account_id', 'in', accountIds)
    .where('holding', '=', true)
    .execute();
  return rows.map((r) => ({
    accountId: r.account_id,
    kind: r.kind as ActiveAlertKind,
    subject: r.subject,
    message: r.message,
  }));
}

/**
 * Marks an alert as holding, unless it already does or stopped less than `quietMs` ago (a value
 * going to and fro across its threshold is told of at most once in that time). True for the one
 * caller, among processes, that made the change: it sends the e-mail.
 */
export async function claimStart(db: Db, state: AlertState, quietMs: number): Promise<boolean> {
  const quietSeconds = Math.round(quietMs / 1000);
  const row = await db
    .insertInto('account_alert_states')
    .values({
      account_id: state.accountId,
      kind: state.kind,
      subject: state.subject,
      holding: true,
      message: state.message,
      changed_at: sql`now()`,
    })
    .onConflict((oc) =>
      oc
        .columns(['account_id', 'kind', 'subject'])
        .doUpdateSet({ holding: true, message: state.message, changed_at: sql`now()` })
        .where('account_alert_states.holding', '=', false)
        .where(sql<boolean>`account_alert_states.changed_at < now() - make_interval(secs => ${quietSeconds})`),
    )
    .returning('account_id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Keeps a holding alert's message current (the header shows the latest figure). */
export async function refreshMessage(db: Db, state: AlertState): Promise<void> {
  await db
    .updateTable('account_alert_states')
    .set({ message: state.message })
    .where('account_id', '=', state.accountId)
    .where('kind', '=', state.kind)
    .where('subject', '=', state.subject)
    .where('holding', '=', true)
    .where('message', '!=', state.message)
    .execute();
}

/** Marks a holding alert as stopped; true for the one caller that made the change. */
export async function claimStop(db: Db, state: AlertState): Promise<boolean> {
  const row = await db
    .updateTable('account_alert_states')
    .set({ holding: false, message: state.message, changed_at: sql`now()` })
    .where('account_id', '=', state.accountId)
    .where('kind', '=', state.kind)
    .where('subject', '=', state.subject)
    .where('holding', '=', true)
    .returning('account_id')
    .executeTakeFirst();
  return row !== undefined;
}

/** An account's alerts that hold now, oldest first. */
export async function activeAlerts(db: Db, accountId: string): Promise<ActiveAlert[]> {
  const rows = await db
    .selectFrom('account_alert_states')
    .select(['kind', 'subject', 'message', 'changed_at'])
    .where('account_id', '=', accountId)
    .where('holding', '=', true)
    .orderBy('changed_at')
    .orderBy('kind')
    .execute();
  return rows.map((r) => ({
    kind: r.kind as ActiveAlertKind,
    subject: r.subject || null,
    message: r.message,
    since: new Date(r.changed_at).toISOString(),
  }));
}
