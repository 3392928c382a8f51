import {
  badRequest,
  displayNetworkName,
  displayResourceName,
  endpoints,
  isNotifyResource,
  Messages,
  NOTIFY_PREFIX,
  RPC_NETWORKS,
  type UsageListQuery,
} from '@ebs/contract';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Db } from '../../db/database.ts';
import { plainDecimal, sendCsv } from '../../http/csv.ts';
import { requireAccount } from '../../http/guards.ts';
import { dayRange, parseNameList } from '../../http/query.ts';
import { ok } from '../../http/reply.ts';
import { route } from '../../http/route.ts';
import { isKnownResource, listPrices } from './prices.store.ts';
import { listUsage, recordUnits, usagePages } from './usage.store.ts';

const describe = (resource: string) =>
  resource.startsWith('TOKEN_FORWARDING_')
    ? `${displayNetworkName(resource.slice('TOKEN_FORWARDING_'.length))} token forwards`
    : isNotifyResource(resource)
      ? `${displayNetworkName(resource.slice(NOTIFY_PREFIX.length))} webhook deliveries`
      : `${RPC_NETWORKS.find((n) => n.resource === resource)?.name ?? displayResourceName(resource)} RPC requests`;

const USAGE_CSV_HEADER = [
  'Date',
  'Description',
  'Resource',
  'Requests',
  'Compute Units',
  'Unit price (USD)',
  'Price (USD)',
  'Status',
  'API key ID',
];

/** A usage list's filters, checked (its paging aside). */
function usageFilter(accountId: string, query: UsageListQuery) {
  if (query.accountId !== undefined && query.accountId.toLowerCase() !== accountId.toLowerCase()) {
    throw badRequest(Messages.usageAccountMismatch);
  }
  dayRange(query.dateStart, query.dateEnd);
  const resources =
    query.resourceNameIn === undefined
      ? undefined
      : parseNameList(query.resourceNameIn, 'resourceNameIn', isKnownResource, 'resource');
  return { from: query.dateStart, to: query.dateEnd, resources, order: query.order };
}

/** What usageRoutes is built from (the composition root hands it in). */
export interface UsageRoutesOptions {
  db: Db;
}

/** The usage calls of spec A §7 Transactions and usage. */
export const usageRoutes: FastifyPluginAsyncTypebox<UsageRoutesOptions> = async (app, { db }) => {
  route(app, endpoints.usage.list, {}, async (req) => {
    const accountId = requireAccount(req).id;
    const { query } = req;
    return ok(
      await listUsage(db, accountId, { ...usageFilter(accountId, query), limit: query.limit, offset: query.offset }),
    );
  });

  route(app, endpoints.usage.exportList, {}, async (req, reply) => {
    const accountId = requireAccount(req).id;
    const pages = usagePages(db, accountId, usageFilter(accountId, req.query));
    const rows = (async function* () {
      for await (const page of pages) {
        yield page.map((r) => [
          r.date,
          describe(r.resource_name),
          r.resource_name,
          r.usage,
          recordUnits(r.resource_name, r.usage, r.compute_units),
          plainDecimal(r.unit_price),
          plainDecimal(r.price),
          r.status,
          r.api_key_id,
        ]);
      }
    })();
    return sendCsv(reply, `usage-${accountId}.csv`, USAGE_CSV_HEADER, rows);
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
