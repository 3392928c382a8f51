import { describeTransactionType, endpoints, Messages, TRANSACTION_TYPES, WELCOME_CREDIT_USD } from '@ebs/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../deps.ts';
import { badRequest } from '../../http/errors.ts';
import { requireAccount, requireCaller } from '../../http/guards.ts';
import { accountAndUserChecks, enforce, perMinuteAndDay } from '../../http/rate-limit.ts';
import { ok } from '../../http/reply.ts';
import { route } from '../../http/route.ts';
import { listTransactions, transactionFilter } from '../ledger/ledger.service.ts';
import { updateAutoDeposit } from './auto-pay.service.ts';
import { redeemWelcomeCredit } from './bonus.service.ts';
import { receiptFile, statementFile } from './documents.service.ts';

export const billingRoutes: FastifyPluginAsyncTypebox<Deps> = async (app, { db, deposits, config, limiter }) => {
  const {
    listTransactions: list,
    listTransactionTypes,
    redeemBonus,
    deposit,
    updateAccountSettings,
    downloadReceipt,
    downloadStatement,
  } = endpoints.billing;
  // Each deposit charges a card: unlimited, a saved card could be charged over and over to test it.
  const paying = perMinuteAndDay(config.PAYMENT_RATE_LIMIT_PER_MINUTE, config.PAYMENT_RATE_LIMIT_PER_DAY);

  route(app, list, {}, async (req) =>
    ok(await listTransactions(db, requireAccount(req).id, transactionFilter(req.query))),
  );

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
    const { autoDeposit, message } = await updateAutoDeposit(db, requireAccount(req).id, req.body.fields);
    return ok(autoDeposit, message);
  });

  route(app, downloadReceipt, {}, async (req) =>
    ok(await receiptFile(db, config.PRODUCT_NAME, requireAccount(req).id, req.query.transactionId)),
  );

  route(app, downloadStatement, {}, async (req) =>
    ok(await statementFile(db, config.PRODUCT_NAME, requireAccount(req).id, req.query.dateStart, req.query.dateEnd)),
  );
};
