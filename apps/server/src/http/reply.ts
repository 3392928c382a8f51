import { badRequest, ErrorBody, Wrapped } from '@ebs/contract';
import type { TSchema } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** The success wrapper every route answers with. */
export const ok = <T>(data: T, message = 'Success') => ({ statusCode: 200, message, data });

/** Response schemas of a route: the wrapped data for 200, the error wrapper otherwise. */
export const responses = <T extends TSchema>(data: T) => ({
  200: Wrapped(data),
  '4xx': ErrorBody,
  '5xx': ErrorBody,
});

/**
 * For calls the spec sends without a body: none, or an empty JSON object. A schema cannot say
 * "absent", so this runs as the route's preValidation.
 */
export async function noBody(request: FastifyRequest): Promise<void> {
  const body = request.body;
  const empty = body === undefined || body === null || (typeof body === 'object' && Object.keys(body).length === 0);
  if (!empty) throw badRequest('This call takes no body.');
}

/**
 * Calls sent with an "empty body" (spec A §7: activate, deactivate, subscribePayment, ...) come
 * from some clients as a JSON content type with nothing after it, which Fastify's parser refuses.
 * An empty JSON body counts as no body; a route that needs one still gets its schema's error.
 */
export function acceptEmptyJsonBody(app: FastifyInstance): void {
  const json = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '') done(null, undefined);
    else
      json(request, body as string, (error, value) =>
        done(error && (prototypeKeyError(body as string) ?? error), value),
      );
  });
}

/**
 * The parser refuses valid JSON that holds a `__proto__` or `constructor.prototype` key (prototype
 * poisoning) with the same error as broken JSON; this names the real reason.
 */
function prototypeKeyError(body: string): Error | undefined {
  try {
    JSON.parse(body);
  } catch {
    return undefined;
  }
  return badRequest('The body must not hold a "__proto__" or "constructor.prototype" key.');
}
