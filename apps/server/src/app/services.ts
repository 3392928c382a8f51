import type { Db } from '../db/database.ts';
import { DepositService } from '../modules/billing/index.ts';
import { type CardProvider, CardsService } from '../modules/cards/index.ts';

/**
 * The card and deposit services, built here for the app (app.ts) and for the jobs an operator runs
 * without a server (app/job-registry.ts): one place says what they are made of.
 */
export function buildPaymentServices(db: Db, provider: CardProvider) {
  return { cards: new CardsService(db, provider), deposits: new DepositService(db, provider) };
}
