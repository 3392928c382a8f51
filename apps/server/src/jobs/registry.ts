import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { cleanUpDrafts } from '../modules/accounts/draft-cleanup.job.ts';
import { runAutoPay } from '../modules/billing/auto-pay.job.ts';
import { DepositService } from '../modules/billing/deposit.service.ts';
import { refreshBillingStatus } from '../modules/billing/ledger.store.ts';
import type { CardProvider } from '../modules/cards/card-provider.ts';
import { CardsService } from '../modules/cards/cards.service.ts';
import type { Mailer } from '../modules/identity/mailer.ts';

/** Every scheduled job by name; `npm run admin -- jobs run NAME` runs one now. */
export type Jobs = Record<string, () => Promise<unknown>>;

export function buildJobs(deps: { db: Db; config: Config; provider: CardProvider; mailer: Mailer }): Jobs {
  const deposits = new DepositService(deps.db, deps.provider);
  return {
    autopay: () => runAutoPay({ db: deps.db, deposits, mailer: deps.mailer, productName: deps.config.PRODUCT_NAME }),
    reconcile: () => deposits.reconcile(),
    billing: async () => ({ changed: await refreshBillingStatus(deps.db) }),
    cleanup: () => cleanUpDrafts(deps.db, new CardsService(deps.db, deps.provider)),
  };
}
