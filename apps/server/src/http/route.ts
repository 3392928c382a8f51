import type {
  Endpoint,
  EndpointBody,
  EndpointData,
  EndpointHeaders,
  EndpointParams,
  EndpointQuery,
} from '@ebs/contract';
import type { TSchema } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import { responses } from './reply.ts';

/** A request to `E`, typed by its schemas (which the route validates before the handler runs). */
export type EndpointRequest<E extends Endpoint> = FastifyRequest<{
  Params: EndpointParams<E>;
  Querystring: EndpointQuery<E>;
  Body: EndpointBody<E>;
  Headers: EndpointHeaders<E>;
}>;

/** What the handler answers: the success wrapper around the endpoint's data, or the reply it sent itself. */
export type EndpointAnswer<E extends Endpoint> = E extends { response: TSchema }
  ? { statusCode: number; message: string; data: EndpointData<E> } | FastifyReply
  : unknown;

/** Route options the table does not hold: hooks, and the guards' finer flags (owner only, drafts). */
export type EndpointRouteOptions = Omit<RouteShorthandOptions, 'schema'>;

type Router = Pick<FastifyInstance, 'route'>;

/**
 * Registers the route of an endpoint of the contract's table: its method, path, access (read by
 * the guards), and schemas (which validate the request, shape the answer and make the OpenAPI
 * document) all come from the table.
 */
export function route<E extends Endpoint>(
  app: Router,
  endpoint: E,
  options: EndpointRouteOptions,
  handler: (request: EndpointRequest<E>, reply: FastifyReply) => Promise<EndpointAnswer<E>>,
): void {
  app.route({
    ...options,
    method: endpoint.method,
    url: endpoint.path,
    config: {
      ...options.config,
      ...(endpoint.access === 'public' && { public: true }),
      ...(endpoint.access === 'account' && { accountScoped: true }),
    },
    schema: {
      tags: [endpoint.tag],
      ...(endpoint.summary && { summary: endpoint.summary }),
      ...(endpoint.hidden && { hide: true }),
      ...(endpoint.params && { params: endpoint.params }),
      ...(endpoint.query && { querystring: endpoint.query }),
      ...(endpoint.body && { body: endpoint.body }),
      ...(endpoint.headers && { headers: endpoint.headers }),
      ...(endpoint.response && { response: responses(endpoint.response) }),
    },
    handler: handler as (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
  });
}
