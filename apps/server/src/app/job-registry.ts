import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import type { JobRun, Jobs } from '../jobs/scheduler.ts';
import type { Mailer } from '../mail/mailer.ts';
import { cleanUpDrafts } from '../modules/accounts/index.ts';
import { checkAlerts } from '../modules/alerts/index.ts';
import { rewardDeposits } from '../modules/ambassador/index.ts';
import { runAutoPay, runBilling } from '../modules/billing/index.ts';
import type { CardProvider } from '../modules/cards/index.ts';
import { keepInsight } from '../modules/insight/index.ts';
import { buildPaymentServices } from './services.ts';

export function buildJobs(deps: {
  db: Db;
  config: Config;
  provider: CardProvider;
  mailer: Mailer;
  /** Writes the usage this process has counted, so that a run bills it (the server's gateway). */
  flushUsage?: () => Promise<void>;
  /** One turn of the forwarding engine and one webhook delivery run (the server's). */
  forwarding?: () => Promise<unknown>;
  webhooks?: () => Promise<unknown>;
  /** One turn of the address-activity engine: scan the watched networks, send what is due. */
  notify?: () => Promise<unknown>;
}): Jobs {
  // The engine has its own faster loop (FORWARDING_SCAN_SECONDS, or a process of its own), so the
  // schedule leaves these two to it; an operator's run does one turn now.
  const onDemand = (job: () => Promise<unknown>) => (run?: JobRun) => (run?.scheduled ? Promise.resolve() : job());
  const { cards, deposits } = buildPaymentServices(deps.db, deps.provider);
  return {
    autopay: () => runAutoPay({ db: deps.db, deposits, mailer: deps.mailer, productName: deps.config.PRODUCT_NAME }),
    reconcile: () => deposits.reconcile(),
    // Deposits settle with their reward; this catches one whose process stopped in between.
    ambassadors: () => rewardDeposits(deps.db),
    // The schedule bills closed days; an operator's run also bills today so far.
    billing: (run) => runBilling(deps.db, { includeToday: !run?.scheduled, flush: deps.flushUsage }),
    cleanup: () => cleanUpDrafts(deps.db, cards),
    insight: () => keepInsight(deps.db),
    // Judged on the usage this process has counted too (spend, caps, keys' daily calls).
    alerts: async () => {
      await deps.flushUsage?.();
      return checkAlerts({ db: deps.db, mailer: deps.mailer, config: deps.config });
    },
    ...(deps.forwarding ? { forwarding: onDemand(deps.forwarding) } : {}),
    ...(deps.webhooks ? { webhooks: onDemand(deps.webhooks) } : {}),
    ...(deps.notify ? { notify: onDemand(deps.notify) } : {}),
  };
}
