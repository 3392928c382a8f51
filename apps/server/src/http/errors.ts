import { STATUS_CODES } from 'node:http';
import { IdentityErrors, Messages, RPC_BASE_PATH, RpcErrorCodes } from '@ebs/contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** An error whose message the user sees as it is; `error` names its kind. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly error: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string, error = 'Bad Request') => new AppError(400, message, error);
export const forbidden = (message: string) => new AppError(403, message, 'Forbidden');
export const notFound = (message: string) => new AppError(404, message, 'Not Found');
export const unauthorized = () => new AppError(401, Messages.tokenExpired, 'Unauthorized');
export const tokenExpired = () => new AppError(401, Messages.cognitoTokenExpired, 'Unauthorized');

type IdentityErrorKey = keyof typeof IdentityErrors;
export const identityError = (key: IdentityErrorKey, statusCode = 400, message?: string) =>
  new AppError(statusCode, message ?? IdentityErrors[key].message, IdentityErrors[key].error);

/** Turns schema failures into one readable line, e.g. "body/email must match format \"email\"". */
function validationMessage(error: FastifyError): string {
  const first = error.validation?.[0];
  if (!first) return error.message;
  const where = `${error.validationContext ?? 'request'}${first.instancePath.replace(/\//g, '.')}`;
  if (first.keyword === 'required') return `${where} must have property '${String(first.params.missingProperty)}'`;
  if (first.keyword === 'additionalProperties') {
    return `${where} must not have property '${String(first.params.additionalProperty)}'`;
  }
  return `${where} ${first.message ?? 'is invalid'}`;
}

/** One error handler: the `{ statusCode, message, error }` wrapper, 5xx details hidden. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      return reply
        .status(error.statusCode)
        .headers(error.headers)
        .send({ statusCode: error.statusCode, message: error.message, error: error.error });
    }
    if (error.validation) {
      return reply.status(400).send({ statusCode: 400, message: validationMessage(error), error: 'Bad Request' });
    }
    const statusCode = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
    if (statusCode >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply
        .status(statusCode)
        .send({ statusCode, message: 'Internal server error', error: 'Internal Server Error' });
    }
    return reply.status(statusCode).send({ statusCode, message: clientMessage(error), error: errorName(statusCode) });
  });
}

/** The error's kind as HTTP names it ("Unsupported Media Type"), never a framework code. */
const errorName = (statusCode: number) => STATUS_CODES[statusCode] ?? 'Error';

/** Fastify's own 4xx texts, where they do not say what to do. */
function clientMessage(error: FastifyError): string {
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
    return 'Unsupported Media Type: send the body as application/json.';
  return error.message;
}

/**
 * Addresses refused before any route is found (broken percent-encoding, a path value past the
 * router's length limit): the same wrapper, without echoing the address back; under the RPC
 * gateway, a JSON-RPC error as the gateway answers every refusal.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  let statusCode = 500;
  let message = 'Internal server error';
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    [statusCode, message] = [414, 'A value in the address is too long.'];
  } else if (error.code === 'FST_ERR_BAD_URL') {
    [statusCode, message] = [400, 'The address is not valid: it holds a broken percent-encoding.'];
  } else {
    request.log.error({ err: error }, 'request failed');
  }
  if (request.url.startsWith(`${RPC_BASE_PATH}/`)) {
    const code = statusCode < 500 ? RpcErrorCodes.notFound : RpcErrorCodes.upstream;
    reply.status(statusCode).send({ jsonrpc: '2.0', id: null, error: { code, message } });
  } else {
    reply.status(statusCode).send({ statusCode, message, error: errorName(statusCode) });
  }
}
