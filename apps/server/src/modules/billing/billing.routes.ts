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
import { ok, responses } from '../../http/reply.ts';
import { updateAutoDeposit } from './auto-pay.service.ts';
import { redeemWelcomeCredit } from './bonus.service.ts';
import { receiptFile, statementFile } from './documents.service.ts';
import { transactionFilter } from './ledger.service.ts';
import { listTransactions } from './ledger.store.ts';

export const billingRoutes: FastifyPluginAsyncTypebox<Deps> = async (app, { db, deposits, config }) => {
  const tags = ['billing'];

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
      config: { accountScoped: true },
      schema: { tags, headers: AccountHeaders, body: RedeemBonusBody, response: responses(RedeemBonusResult) },
    },
    async (req) => {
      const accountId = requireAccount(req).id;
      if (req.body.accountId !== accountId) throw badRequest(Messages.bonusAccountMismatch);
      const transactionId = await redeemWelcomeCredit(db, requireCaller(req).userId, accountId);
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
    async (req) =>
      ok(
        await deposits.deposit(requireAccount(req).id, req.body, req.headers['idempotency-key']),
        Messages.paymentProcessing,
      ),
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
