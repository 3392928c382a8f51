import { displayNetworkName, displayResourceName, endpoints, Messages, RPC_NETWORKS } from '@ebs/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../deps.ts';
import { badRequest } from '../../http/errors.ts';
import { requireAccount } from '../../http/guards.ts';
import { dayRange, parseNameList } from '../../http/query.ts';
import { ok } from '../../http/reply.ts';
import { route } from '../../http/route.ts';
import { isKnownResource, listPrices } from './prices.store.ts';
import { listUsage } from './usage.store.ts';

const describe = (resource: string) =>
  resource.startsWith('TOKEN_FORWARDING_')
    ? `${displayNetworkName(resource.slice('TOKEN_FORWARDING_'.length))} token forwards`
    : `${RPC_NETWORKS.find((n) => n.resource === resource)?.name ?? displayResourceName(resource)} RPC requests`;

/** The usage calls of spec A §7 Transactions and usage. */
export const usageRoutes: FastifyPluginAsyncTypebox<Deps> = async (app, { db }) => {
  route(app, endpoints.usage.list, {}, async (req) => {
    const accountId = requireAccount(req).id;
    const { query } = req;
    if (query.accountId !== undefined && query.accountId.toLowerCase() !== accountId.toLowerCase()) {
      throw badRequest(Messages.usageAccountMismatch);
    }
    dayRange(query.dateStart, query.dateEnd);
    const resources =
      query.resourceNameIn === undefined
        ? undefined
        : parseNameList(query.resourceNameIn, 'resourceNameIn', isKnownResource, 'resource');
    return ok(
      await listUsage(db, accountId, {
        from: query.dateStart,
        to: query.dateEnd,
        resources,
        limit: query.limit,
        offset: query.offset,
        order: query.order,
      }),
    );
  });

  route(app, endpoints.usage.listResources, {}, async () => {
    const prices = await listPrices(db);
    return ok(
      prices.map((p) => ({
        resourceName: p.resourceName,
        description: describe(p.resourceName),
        unitPrice: Number(p.unitPrice),
      })),
    );
  });
};
