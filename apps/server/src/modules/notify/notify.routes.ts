import { endpoints, NotifyMessages as M } from '@ebs/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { requireAccount, requireCaller } from '../../http/guards.ts';
import {
  accountAndUserChecks,
  enforce,
  perMinuteAndDay,
  type RateLimiter,
  type RateRule,
} from '../../http/rate-limit.ts';
import { noBody, ok } from '../../http/reply.ts';
import { route } from '../../http/route.ts';
import type { Notify } from './notify.ts';

/** A test or a replay sends requests to an address the caller picks, or reads many blocks: few. */
const TESTS = perMinuteAndDay(10, 200);
const REPLAYS = perMinuteAndDay(10, 100);
/** Address changes and creates write up to a thousand rows each. */
const CHANGES = perMinuteAndDay(120, 5000);

export interface NotifyRoutesOptions {
  notify: Notify;
  limiter: RateLimiter;
}

/** The address-activity webhook calls, for owners and members of the account alike. */
export const notifyRoutes: FastifyPluginAsyncTypebox<NotifyRoutesOptions> = async (app, { notify, limiter }) => {
  const service = notify.service;
  const limit = (action: string, rules: RateRule[], req: FastifyRequest) =>
    enforce(
      limiter,
      accountAndUserChecks(action, { accountId: requireAccount(req).id, userId: requireCaller(req).userId }, rules),
    );
  const account = (req: FastifyRequest) => requireAccount(req).id;
  const e = endpoints.notify;

  route(app, e.create, {}, async (req) => {
    await limit('notify-change', CHANGES, req);
    return ok(await service.create(account(req), req.body), M.created);
  });
  route(app, e.list, {}, async (req) => ok({ webhooks: await service.list(account(req)) }));
  route(app, e.get, {}, async (req) => ok(await service.get(account(req), req.params.webhookId)));
  route(app, e.remove, { preValidation: noBody }, async (req) => {
    await service.remove(account(req), req.params.webhookId);
    return ok({}, M.deleted);
  });
  route(app, e.setStatus, {}, async (req) => {
    const webhook = await service.setStatus(account(req), req.params.webhookId, req.body.status);
    return ok(webhook, webhook.status === 'ENABLED' ? M.enabled : M.disabled);
  });
  route(app, e.changeAddresses, {}, async (req) => {
    await limit('notify-change', CHANGES, req);
    return ok(await service.changeAddresses(account(req), req.params.webhookId, req.body), M.addressesUpdated);
  });
  route(app, e.listAddresses, {}, async (req) =>
    ok(await service.addresses(account(req), req.params.webhookId, req.query)),
  );
  route(app, e.replay, {}, async (req) => {
    await limit('notify-replay', REPLAYS, req);
    return ok(await service.replay(account(req), req.params.webhookId, req.body), M.replayStarted);
  });
  route(app, e.deliveries, {}, async (req) =>
    ok(await service.deliveries(account(req), req.params.webhookId, req.query)),
  );
  route(app, e.test, { preValidation: noBody }, async (req) => {
    await limit('notify-test', TESTS, req);
    return ok(await service.test(account(req), req.params.webhookId));
  });
};
