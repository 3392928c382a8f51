import { endpoints, Messages } from '@ebs/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { requireAccount, requireCaller } from '../../http/guards.ts';
import type { RateLimiter } from '../../http/rate-limit.ts';
import { accountAndUserChecks, enforce, perMinuteAndDay } from '../../http/rate-limit.ts';
import { noBody, ok } from '../../http/reply.ts';
import { route } from '../../http/route.ts';
import { findMemberRole } from '../accounts/index.ts';
import type { CardsService } from './cards.service.ts';
import { listCards } from './cards.store.ts';

/** What cardRoutes is built from (the composition root hands it in). */
export interface CardRoutesOptions {
  db: Db;
  cards: CardsService;
  config: Config;
  limiter: RateLimiter;
}

/** The card calls of spec A §7 Payments. */
export const cardRoutes: FastifyPluginAsyncTypebox<CardRoutesOptions> = async (app, { db, cards, config, limiter }) => {
  const { list, attach, setDefault, remove, updateExpiry, subscribe, createSetupIntent } = endpoints.cards;
  // Each setup and attach asks the card provider about a card: unlimited, it tests stolen numbers.
  const paying = perMinuteAndDay(config.PAYMENT_RATE_LIMIT_PER_MINUTE, config.PAYMENT_RATE_LIMIT_PER_DAY);
  const limit = (action: string, req: FastifyRequest) =>
    enforce(
      limiter,
      accountAndUserChecks(action, { accountId: requireAccount(req).id, userId: requireCaller(req).userId }, paying),
    );
  // The creation wizard adds a card to its draft account: every card call serves drafts.
  const drafts = { config: { draftAllowed: true } };

  route(app, list, drafts, async (req) => ok(await listCards(db, requireAccount(req).id)));

  route(app, attach, drafts, async (req) => {
    await limit('card-attach', req);
    return ok({ cardId: await cards.attach(requireAccount(req).id, req.body.cardToken) }, Messages.cardAdded);
  });

  // spec A §6: this call may leave out ebs-account-id; the card then names its account.
  route(app, setDefault, { config: { draftAllowed: true, accountHeaderOptional: true } }, async (req) => {
    const userId = requireCaller(req).userId;
    const accountId =
      req.account?.id ??
      (await cards.accountOfCard(req.body.cardId, async (id) => (await findMemberRole(db, id, userId)) !== undefined));
    await cards.setDefault(accountId, req.body.cardId);
    return ok({}, Messages.cardSetDefault);
  });

  route(app, remove, drafts, async (req) => {
    await cards.remove(requireAccount(req).id, req.body.cardId);
    return ok({}, Messages.cardRemoved);
  });

  route(app, updateExpiry, drafts, async (req) => {
    const { cardId, expireMonth, expireYear } = req.body;
    await cards.updateExpiry(requireAccount(req).id, cardId, expireMonth, expireYear);
    return ok({}, Messages.cardUpdated);
  });

  // Not described by the spec beyond its path: see docs/decisions.md "subscribePayment".
  route(app, subscribe, { ...drafts, preValidation: noBody }, async (req) => {
    const accountId = requireAccount(req).id;
    return ok({ accountId, provider: cards.providerName, customerId: await cards.subscribe(accountId) });
  });

  // Registered last: the static paths above win over this parameter.
  route(app, createSetupIntent, drafts, async (req) => {
    await limit('card-setup', req);
    return ok(await cards.createSetupIntent(requireAccount(req).id, req.params.provider));
  });
};
