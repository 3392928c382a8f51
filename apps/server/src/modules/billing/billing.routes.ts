import {
  badRequest,
  describeTransactionType,
  endpoints,
  Messages,
  TRANSACTION_TYPES,
  WELCOME_CREDIT_USD,
} from '@ebs/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { plainDecimal, sendCsv } from '../../http/csv.ts';
import { requireAccount, requireCaller } from '../../http/guards.ts';
import type { RateLimiter } from '../../http/rate-limit.ts';
import { accountAndUserChecks, enforce, perMinuteAndDay } from '../../http/rate-limit.ts';
import { ok } from '../../http/reply.ts';
import { route } from '../../http/route.ts';
import { listTransactions, transactionFilter, transactionPages } from '../ledger/index.ts';
import { updateAutoDeposit } from './auto-pay.service.ts';
import { redeemWelcomeCredit } from './bonus.service.ts';
import type { DepositService } from './deposit.service.ts';
import { receiptFile, statementFile } from './documents.service.ts';
import { saveSpendingCap } from './spending-cap.service.ts';

const TRANSACTIONS_CSV_HEADER = ['Date', 'Description', 'Type', 'Amount (USD)', 'Status', 'Transaction ID', 'Note'];

const noteOf = (metadata: unknown) =>
  typeof metadata === 'object' && metadata !== null && typeof (metadata as { note?: unknown }).note === 'string'
    ? (metadata as { note: string }).note
    : null;

/** What billingRoutes is built from (the composition root hands it in). */
export interface BillingRoutesOptions {
  db: Db;
  deposits: DepositService;
  config: Config;
  limiter: RateLimiter;
}

export const billingRoutes: FastifyPluginAsyncTypebox<BillingRoutesOptions> = async (
  app,
  { db, deposits, config, limiter },
) => {
  const {
    listTransactions: list,
    listTransactionTypes,
    redeemBonus,
    deposit,
    updateAccountSettings,
    downloadReceipt,
    downloadStatement,
    exportTransactions,
  } = endpoints.billing;
  // Each deposit charges a card: unlimited, a saved card could be charged over and over to test it.
  const paying = perMinuteAndDay(config.PAYMENT_RATE_LIMIT_PER_MINUTE, config.PAYMENT_RATE_LIMIT_PER_DAY);

  route(app, list, {}, async (req) =>
    ok(await listTransactions(db, requireAccount(req).id, transactionFilter(req.query))),
  );

  route(app, exportTransactions, {}, async (req, reply) => {
    const accountId = requireAccount(req).id;
    const pages = transactionPages(db, accountId, transactionFilter(req.query));
    const rows = (async function* () {
      for await (const page of pages) {
        yield page.map((t) => [
          t.created_at.toISOString(),
          describeTransactionType(t.type),
          t.type,
          plainDecimal(t.amount),
          t.status,
          t.id,
          noteOf(t.metadata),
        ]);
      }
    })();
    return sendCsv(reply, `transactions-${accountId}.csv`, TRANSACTIONS_CSV_HEADER, rows);
  });

  route(app, listTransactionTypes, {}, async () =>
    ok(Object.keys(TRANSACTION_TYPES).map((type) => ({ type, description: describeTransactionType(type) }))),
  );

  route(
    app,
    redeemBonus,
    // A member spending their own credit on an account they joined would let one owner collect it per member.
    { config: { ownerOnly: Messages.ownerOnlyWelcomeCredit } },
    async (req) => {
      const account = requireAccount(req);
      const accountId = account.id;
      if (req.body.accountId !== accountId) throw badRequest(Messages.bonusAccountMismatch);
      const transactionId = await redeemWelcomeCredit(db, requireCaller(req).userId, account);
      return ok(
        { accountId, type: req.body.type, amount: WELCOME_CREDIT_USD, transactionId },
        Messages.welcomeCreditAdded,
      );
    },
  );

  route(app, deposit, {}, async (req) => {
    const accountId = requireAccount(req).id;
    await enforce(limiter, accountAndUserChecks('deposit', { accountId, userId: requireCaller(req).userId }, paying));
    return ok(await deposits.deposit(accountId, req.body, req.headers['idempotency-key']), Messages.paymentProcessing);
  });

  route(app, updateAccountSettings, {}, async (req) => {
    const { body } = req;
    if (body.settingName === 'spendingCap') {
      return ok(await saveSpendingCap(db, requireAccount(req), body.fields), Messages.spendingCapSaved);
    }
    const { autoDeposit, message } = await updateAutoDeposit(db, requireAccount(req).id, body.fields);
    return ok(autoDeposit, message);
  });

  route(app, downloadReceipt, {}, async (req) =>
    ok(await receiptFile(db, config.PRODUCT_NAME, requireAccount(req).id, req.query.transactionId)),
  );

  route(app, downloadStatement, {}, async (req) =>
    ok(await statementFile(db, config.PRODUCT_NAME, requireAccount(req).id, req.query.dateStart, req.query.dateEnd)),
  );
};
