import {
  AccountHeaders,
  describeTransactionType,
  TRANSACTION_TYPES,
  TransactionList,
  TransactionListQuery,
  TransactionTypeList,
} from '@ebs/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../deps.ts';
import { requireAccount } from '../../http/guards.ts';
import { ok, responses } from '../../http/reply.ts';
import { transactionFilter } from './ledger.service.ts';
import { listTransactions } from './ledger.store.ts';

export const billingRoutes: FastifyPluginAsyncTypebox<Deps> = async (app, { db }) => {
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
};
