import { type AlertSettings, badRequest, endpoints, isUsdAlert, Messages } from '@ebs/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Db } from '../../db/database.ts';
import { requireAccount } from '../../http/guards.ts';
import { ok } from '../../http/reply.ts';
import { route } from '../../http/route.ts';
import { findMemberRole } from '../accounts/index.ts';
import { activeAlerts, findAlertSettings, saveAlertSettings } from './alerts.store.ts';

/** Each kind once, a USD threshold in cents at most, a percentage from 1 to 100, members only. */
async function checked(db: Db, accountId: string, settings: AlertSettings): Promise<AlertSettings> {
  const kinds = settings.alerts.map((a) => a.kind);
  if (new Set(kinds).size !== kinds.length) throw badRequest('Each alert may be given once');
  for (const alert of settings.alerts) {
    if (isUsdAlert(alert.kind)) {
      if (Math.round(alert.threshold * 100) !== alert.threshold * 100) {
        throw badRequest(`The ${alert.kind} threshold is USD with at most 2 decimals`);
      }
    } else if (alert.threshold < 1 || alert.threshold > 100 || !Number.isInteger(alert.threshold * 10)) {
      throw badRequest(`The ${alert.kind} threshold is a percentage from 1 to 100, with at most one decimal`);
    }
  }
  const recipients = [...new Set(settings.recipients.map((id) => id.toLowerCase()))];
  for (const userId of recipients) {
    if (!(await findMemberRole(db, accountId, userId))) throw badRequest(`${userId} is not a member of this account`);
  }
  return { alerts: settings.alerts, recipients };
}

/** What alertRoutes is built from (the composition root hands it in). */
export interface AlertRoutesOptions {
  db: Db;
}

/** The account's alerts: read by any member, changed by the owner; the ones holding now for the header. */
export const alertRoutes: FastifyPluginAsyncTypebox<AlertRoutesOptions> = async (app, { db }) => {
  route(app, endpoints.accounts.alerts, {}, async (req) => ok(await findAlertSettings(db, requireAccount(req).id)));

  route(app, endpoints.accounts.updateAlerts, { config: { ownerOnly: Messages.ownerOnlyAlerts } }, async (req) => {
    const accountId = requireAccount(req).id;
    return ok(await saveAlertSettings(db, accountId, await checked(db, accountId, req.body)), Messages.alertsSaved);
  });

  route(app, endpoints.accounts.activeAlerts, {}, async (req) =>
    ok({ active: await activeAlerts(db, requireAccount(req).id) }),
  );
};
