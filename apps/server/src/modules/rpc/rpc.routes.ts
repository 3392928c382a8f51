import { endpoints } from '@ebs/contract';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { ok } from '../../http/reply.ts';
import { route } from '../../http/route.ts';
import type { NetworkStatus } from './network-status.ts';
import type { PriceBook } from './price-book.ts';
import type { RpcHttp } from './rpc-http.ts';

/**
 * The gateway's routes in the console's route table (the API document, the route checks). The
 * server answers them before its router (app.ts hands them to RpcHttp); a request that reaches
 * Fastify anyway (e.g. through `inject`) is handed over raw, its body unread.
 */
export const rpcRoutes: FastifyPluginAsync<{ rpcHttp: RpcHttp; status: NetworkStatus; prices: PriceBook }> = async (
  app,
  { rpcHttp, status, prices },
) => {
  // The networks' status and the prices are console calls (the success wrapper), answered by Fastify.
  route(app, endpoints.rpc.status, {}, async () => ok(await status.read()));
  // From memory: the prices are read from the database every few seconds, not per request.
  route(app, endpoints.rpc.pricing, {}, async () => ok(prices.published()));
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    reply.hijack();
    rpcHttp.handle(request.raw, reply.raw);
  };
  // The hot path logs only its failures (and never its URL, which carries the key).
  const options = { logLevel: 'warn' } as const;
  const { gateway, unknownNetwork, preflight } = endpoints.rpc;
  route(app, gateway, options, handler);
  route(app, unknownNetwork, options, handler);
  route(app, preflight, options, handler);
};
