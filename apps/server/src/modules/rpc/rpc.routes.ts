import { API_KEY_ID_PARAM, API_KEY_PARAM, endpoints, findRpcNetwork, RpcErrorCodes, RpcMessages } from '@ebs/contract';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Dispatcher } from 'undici';
import type { Deps } from '../../deps.ts';
import { route } from '../../http/route.ts';
import { BUFFERED_ANSWER_MAX_BYTES } from './network-gateway.ts';
import { parseRpcBody, type RpcAnswer, RpcRefusal } from './rpc-request.ts';

/**
 * A batch of which some calls were kept back: the upstream's answers, then the gateway's own
 * (JSON-RPC lets a batch answer come in any order; clients match answers by id).
 */
async function withOwnAnswers(answer: Dispatcher.ResponseData, own: RpcAnswer[], network: string): Promise<unknown[]> {
  const text = await answer.body.text();
  let upstream: unknown;
  try {
    upstream = JSON.parse(text);
  } catch {
    throw new RpcRefusal(502, RpcErrorCodes.upstream, RpcMessages.upstreamFailed(network));
  }
  return [...[upstream].flat(), ...own];
}

/** A key travels in the query (as the RPC page shows it) or, under the same names, as headers. */
function credential(request: FastifyRequest, name: string): string | undefined {
  const fromQuery = (request.query as Record<string, unknown>)[name];
  if (typeof fromQuery === 'string' && fromQuery) return fromQuery;
  const fromHeader = request.headers[name];
  return typeof fromHeader === 'string' && fromHeader ? fromHeader : undefined;
}

/**
 * POST /api/v1.0/rpc/{network}: the JSON-RPC gateway. Errors are JSON-RPC error objects, not the
 * console's wrapper, so any Ethereum client reads them. Its own body parser takes the body as text
 * (whatever the content type says) so that it is checked once and forwarded as sent.
 */
export const rpcRoutes: FastifyPluginAsync<Deps> = async (app, { rpc, config }) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: config.RPC_MAX_BODY_BYTES }, (_req, body, done) =>
    done(null, body),
  );
  app.setErrorHandler((error, request, reply) => {
    let refusal: RpcRefusal;
    if (error instanceof RpcRefusal) refusal = error;
    else if ((error as { code?: string }).code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      refusal = new RpcRefusal(413, RpcErrorCodes.invalidRequest, RpcMessages.tooLarge(config.RPC_MAX_BODY_BYTES));
    } else if ((error as { statusCode?: number }).statusCode === 400) {
      refusal = new RpcRefusal(400, RpcErrorCodes.parseError, RpcMessages.notJson);
    } else if (request.raw.destroyed || (error as { code?: string }).code === 'UND_ERR_ABORTED') {
      // The caller hung up mid-answer: nothing to answer, nothing wrong on our side.
      request.log.debug({ err: error }, 'RPC caller went away');
      return;
    } else {
      request.log.error({ err: error }, 'RPC request failed');
      refusal = new RpcRefusal(500, RpcErrorCodes.upstream, 'Internal error, please try again later.');
    }
    return reply.status(refusal.httpStatus).headers(refusal.headers).send(refusal.body());
  });
  // Dapps call the gateway from browsers: any origin may, with the key in the query or headers.
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('access-control-allow-origin', '*').header('access-control-expose-headers', 'x-cache');
  });

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const params = request.params as { chain?: string; net?: string; '*'?: string };
    const path = params['*'] === undefined ? `${params.chain}/${params.net}` : params['*'].replace(/\/+$/, '');
    const network = findRpcNetwork(path);
    if (!network) throw new RpcRefusal(404, RpcErrorCodes.notFound, RpcMessages.unknownNetwork(path));
    const caller = await rpc.authorize(credential(request, API_KEY_ID_PARAM), {
      key: credential(request, API_KEY_PARAM),
      authorization: request.headers.authorization,
      origin: request.headers.origin,
      referer: request.headers.referer,
      ip: request.ip,
    });
    const body = request.body as string;
    const parsed = parseRpcBody(body, config.RPC_MAX_BATCH);
    // Calls the method policy or the key's rules keep back are answered here: never sent upstream,
    // never metered, never counted against the key's limits.
    const screened = rpc.screen(body, parsed, caller);
    if (screened.forward === null) {
      reply.status(screened.refusedByKey > 0 ? 403 : 200);
      return reply.send(parsed.batch ? screened.answers : screened.answers[0]);
    }
    await rpc.limit(caller, screened.forwardedCalls, parsed.id);
    const answer = await rpc.forward(network, { ...screened, forward: screened.forward }, parsed);
    // Answers from the cache are what the customer asked for: metered like any call.
    rpc.meter.count(caller.accountId, caller.apiKeyId, network.resource, screened.forwardedCalls);
    if ('cache' in answer) {
      return reply
        .status(answer.status)
        .header('content-type', answer.contentType)
        .header('x-cache', answer.cache)
        .send(answer.body);
    }
    reply.header('x-cache', 'MISS');
    if (screened.answers.length > 0) return reply.send(await withOwnAnswers(answer, screened.answers, network.name));
    reply.status(answer.statusCode).header('content-type', answer.headers['content-type'] ?? 'application/json');
    const length = answer.headers['content-length'];
    // A small answer of known length is read whole and written with the headers in one go, which
    // costs less than piping a stream; anything larger or of unknown length is streamed as it comes.
    if (typeof length === 'string' && Number(length) <= BUFFERED_ANSWER_MAX_BYTES) {
      return reply.send(Buffer.from(await answer.body.arrayBuffer()));
    }
    if (typeof length === 'string') reply.header('content-length', length);
    return reply.send(answer.body);
  };
  // The hot path logs only its failures (and never its URL, which carries the key).
  const options = { logLevel: 'warn' } as const;
  const { gateway, unknownNetwork, preflight } = endpoints.rpc;

  route(app, gateway, options, handler);
  // Any other path under the RPC base answers the unknown-network error as JSON-RPC too.
  route(app, unknownNetwork, options, handler);
  // A browser's preflight before a cross-origin POST with JSON or key headers.
  route(app, preflight, options, async (_request, reply) =>
    reply
      .status(204)
      .header('access-control-allow-methods', 'POST, OPTIONS')
      .header('access-control-allow-headers', `content-type, authorization, ${API_KEY_ID_PARAM}, ${API_KEY_PARAM}`)
      .header('access-control-max-age', '86400')
      .send(),
  );
};
