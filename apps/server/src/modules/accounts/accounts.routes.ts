import { badRequest, endpoints, Messages, notFound } from '@ebs/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Db } from '../../db/database.ts';
import { requireAccount, requireCaller } from '../../http/guards.ts';
import { ok } from '../../http/reply.ts';
import { route } from '../../http/route.ts';
import { joinInvitedAccounts } from './account-access.service.ts';
import type { AccountsService } from './accounts.service.ts';
import * as store from './accounts.store.ts';

/** What accountRoutes is built from (the composition root hands it in). */
export interface AccountRoutesOptions {
  db: Db;
  accounts: AccountsService;
}

export const accountRoutes: FastifyPluginAsyncTypebox<AccountRoutesOptions> = async (app, { db, accounts }) => {
  const { list, create, finishCreate, details, isFeatureEnabled } = endpoints.accounts;

  route(app, list, {}, async (req) => {
    const { limit, offset } = req.query;
    const userId = requireCaller(req).userId;
    await joinInvitedAccounts(db, userId);
    const { accounts, total } = await store.listAccountsOfUser(db, userId, { limit, offset });
    return ok({ accounts, offset, limit, total, count: accounts.length });
  });

  route(app, create, {}, async (req) => {
    const account = await accounts.create(requireCaller(req).userId, req.body);
    return ok(account, Messages.createdName(account.name));
  });

  // The finish step names the draft in its body; ebs-account-id may name it instead, or be absent.
  route(app, finishCreate, { config: { draftAllowed: true, accountHeaderOptional: true } }, async (req) => {
    const accountId = req.body.accountId ?? req.account?.id;
    if (!accountId) throw badRequest(Messages.accountHeaderRequired);
    const account = await accounts.finish(requireCaller(req).userId, accountId, req.body);
    return ok(account, Messages.createdName(account.name));
  });

  route(app, details, { config: { draftAllowed: true } }, async (req) => {
    const details = await store.findAccountDetails(db, requireAccount(req).id, requireCaller(req).userId);
    if (!details) throw notFound(Messages.notAMember);
    return ok(details);
  });

  route(app, isFeatureEnabled, {}, async (req) => {
    const { featureName } = req.query;
    return ok({ featureName, result: await store.isFeatureEnabled(db, requireAccount(req).id, featureName) });
  });
};
