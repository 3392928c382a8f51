import {
  AccountHeaders,
  AutoDepositSetting,
  DepositBody,
  DepositHeaders,
  DepositResult,
  describeTransactionType,
  Messages,
  ReceiptFile,
  ReceiptQuery,
  RedeemBonusBody,
  RedeemBonusResult,
  StatementQuery,
  TRANSACTION_TYPES,
  TransactionList,
  TransactionListQuery,
  TransactionTypeList,
  UpdateAccountSettingsBody,
  WELCOME_CREDIT_USD,
} from '@ebs/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../deps.ts';
import { badRequest } from '../../http/errors.ts';
import { requireAccount, requireCaller } from '../../http/guards.ts';
import { accountAndUserChecks, enforce, perMinuteAndDay } from '../../http/rate-limit.ts';
import { ok, responses } from '../../http/reply.ts';
import { listTransactions, transactionFilter } from '../ledger/ledger.service.ts';
import { updateAutoDeposit } from './auto-pay.service.ts';
import { redeemWelcomeCredit } from './bonus.service.ts';
import { receiptFile, statementFile } from './documents.service.ts';

export const billingRoutes: FastifyPluginAsyncTypebox<Deps> = async (app, { db, deposits, config, limiter }) => {
  const tags = ['billing'];
  // Each deposit charges a card: unlimited, a saved card could be charged over and over to test it.
  const paying = perMinuteAndDay(config.PAYMENT_RATE_LIMIT_PER_MINUTE, config.PAYMENT_RATE_LIMIT_PER_DAY);

  app.get(
    '/api/v1.0/transaction',
    {
      config: { accountScoped: true },
      schema: {
        tags,
        headers: AccountHeaders,
        querystring: TransactionListQuery,
        response: responses(TransactionList),
      },
    },
    async (req) => ok(await listTransactions(db, requireAccount(req).id, transactionFilter(req.query))),
  );

  app.get('/api/v1.0/transaction/type', { schema: { tags, response: responses(TransactionTypeList) } }, async () =>
    ok(Object.keys(TRANSACTION_TYPES).map((type) => ({ type, description: describeTransactionType(type) }))),
  );

  app.post(
    '/api/v1.0/account/redeemBonus',
    {
      // A member spending their own credit on an account they joined would let one owner collect it per member.
      config: { accountScoped: true, ownerOnly: Messages.ownerOnlyWelcomeCredit },
      schema: { tags, headers: AccountHeaders, body: RedeemBonusBody, response: responses(RedeemBonusResult) },
    },
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

  app.post(
    '/api/v1.0/payment/card/deposit',
    {
      config: { accountScoped: true },
      schema: { tags, headers: DepositHeaders, body: DepositBody, response: responses(DepositResult) },
    },
    async (req) => {
      const accountId = requireAccount(req).id;
      await enforce(limiter, accountAndUserChecks('deposit', { accountId, userId: requireCaller(req).userId }, paying));
      return ok(
        await deposits.deposit(accountId, req.body, req.headers['idempotency-key']),
        Messages.paymentProcessing,
      );
    },
  );

  app.post(
    '/api/v1.0/account/updateAccountSettings',
    {
      config: { accountScoped: true },
      schema: {
        tags,
        headers: AccountHeaders,
        body: UpdateAccountSettingsBody,
        response: responses(AutoDepositSetting),
      },
    },
    async (req) => {
      const { autoDeposit, message } = await updateAutoDeposit(db, requireAccount(req).id, req.body.fields);
      return ok(autoDeposit, message);
    },
  );

  app.get(
    '/api/v1.0/payment/receipt/download',
    {
      config: { accountScoped: true },
      schema: { tags, headers: AccountHeaders, querystring: ReceiptQuery, response: responses(ReceiptFile) },
    },
    async (req) => ok(await receiptFile(db, config.PRODUCT_NAME, requireAccount(req).id, req.query.transactionId)),
  );

  app.get(
    '/api/v1.0/transaction/statement',
    {
      config: { accountScoped: true },
      schema: { tags, headers: AccountHeaders, querystring: StatementQuery, response: responses(ReceiptFile) },
    },
    async (req) =>
      ok(await statementFile(db, config.PRODUCT_NAME, requireAccount(req).id, req.query.dateStart, req.query.dateEnd)),
  );
};
