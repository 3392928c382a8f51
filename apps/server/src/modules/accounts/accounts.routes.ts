import {
  AccountDetails,
  AccountHeaders,
  AccountList,
  AccountListQuery,
  AccountSummary,
  CreateAccountBody,
  FeatureQuery,
  FeatureResult,
  FinishCreateAccountBody,
  Messages,
} from '@ebs/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Deps } from '../../deps.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { requireAccount, requireCaller } from '../../http/guards.ts';
import { ok, responses } from '../../http/reply.ts';
import { joinInvitedAccounts } from './account-access.service.ts';
import * as store from './accounts.store.ts';

/** The account list sends the header empty (spec A §6). */
const OptionalAccountHeader = Type.Object({ 'ebs-account-id': Type.Optional(Type.String()) });

export const accountRoutes: FastifyPluginAsyncTypebox<Deps> = async (app, { db, accounts }) => {
  const tags = ['accounts'];
  const scoped = { accountScoped: true };
  const draftToo = { accountScoped: true, draftAllowed: true };

  app.get(
    '/api/v1.0/account',
    {
      schema: { tags, headers: OptionalAccountHeader, querystring: AccountListQuery, response: responses(AccountList) },
    },
    async (req) => {
      const { limit, offset } = req.query;
      const userId = requireCaller(req).userId;
      await joinInvitedAccounts(db, userId);
      const { accounts, total } = await store.listAccountsOfUser(db, userId, { limit, offset });
      return ok({ accounts, offset, limit, total, count: accounts.length });
    },
  );

  app.post(
    '/api/v1.0/account',
    { schema: { tags, headers: OptionalAccountHeader, body: CreateAccountBody, response: responses(AccountSummary) } },
    async (req) => {
      const account = await accounts.create(requireCaller(req).userId, req.body);
      return ok(account, Messages.createdName(account.name));
    },
  );

  // The finish step names the draft in its body; ebs-account-id may name it instead, or be absent.
  app.post(
    '/api/v1.0/account/finishCreateAccountProcess',
    {
      config: { ...draftToo, accountHeaderOptional: true },
      schema: {
        tags,
        headers: OptionalAccountHeader,
        body: FinishCreateAccountBody,
        response: responses(AccountSummary),
      },
    },
    async (req) => {
      const accountId = req.body.accountId ?? req.account?.id;
      if (!accountId) throw badRequest(Messages.accountHeaderRequired);
      const account = await accounts.finish(requireCaller(req).userId, accountId, req.body);
      return ok(account, Messages.createdName(account.name));
    },
  );

  app.get(
    '/api/v1.0/account/details',
    { config: draftToo, schema: { tags, headers: AccountHeaders, response: responses(AccountDetails) } },
    async (req) => {
      const details = await store.findAccountDetails(db, requireAccount(req).id, requireCaller(req).userId);
      if (!details) throw notFound(Messages.notAMember);
      return ok(details);
    },
  );

  app.get(
    '/api/v1.0/feature/isAccountValidForFeature',
    {
      config: scoped,
      schema: { tags, headers: AccountHeaders, querystring: FeatureQuery, response: responses(FeatureResult) },
    },
    async (req) => {
      const { featureName } = req.query;
      return ok({ featureName, result: await store.isFeatureEnabled(db, requireAccount(req).id, featureName) });
    },
  );
};
