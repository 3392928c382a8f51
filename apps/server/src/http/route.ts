import {
  type Endpoint,
  type EndpointBody,
  type EndpointData,
  type EndpointHeaders,
  type EndpointParams,
  type EndpointQuery,
  endpointList,
} from '@ebs/contract';
import type { TSchema } from '@sinclair/typebox';
import type {
  FastifyContextConfig,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  RouteOptions,
  RouteShorthandOptions,
} from 'fastify';
import { API_DOCS_PREFIX } from './guards.ts';
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

const tabled = new Set(endpointList().map((entry) => entry.endpoint));
/** The server's own paths; the rest are the web app's files and the OpenAPI viewer's. */
const OWN_PATHS = ['/api/', '/auth/', '/dev/', '/admin/', '/processor/'];

/**
 * Refuses, when the app is built, a route of the server's own paths that was not registered from
 * the contract's table: no endpoint exists outside it.
 */
export function refuseUntabledRoute(registered: RouteOptions): void {
  const { url, config } = registered;
  if (!OWN_PATHS.some((prefix) => url.startsWith(prefix)) || url.startsWith(API_DOCS_PREFIX)) return;
  if (registered.method === 'HEAD') return; // Fastify's own twin of a GET route.
  const endpoint = (config as FastifyContextConfig | undefined)?.endpoint;
  if (!endpoint || !tabled.has(endpoint)) {
    throw new Error(`${String(registered.method)} ${url} is not registered from the contract's endpoint table`);
  }
}

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
      endpoint,
      ...(endpoint.access === 'public' && { public: true }),
      ...(endpoint.access === 'account' && { accountScoped: true }),
    },
    schema: {
      tags: [endpoint.tag],
      ...(endpoint.summary && { summary: endpoint.summary }),
      ...(endpoint.description && { description: endpoint.description }),
      // The document's default is the identity token; a public endpoint needs none.
      ...(endpoint.access === 'public' && { security: [] }),
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
