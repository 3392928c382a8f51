import { AppError, ERROR_STATUS, httpErrorCode, RPC_BASE_PATH, RpcErrorCodes } from '@ebs/contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

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
    // The framework's own errors answer with a code of the closed list: a status it does not hold
    // becomes 400 or 500.
    const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
    const code = httpErrorCode(status) ?? (status < 500 ? 'Bad Request' : 'Internal Server Error');
    const statusCode = ERROR_STATUS[code];
    if (statusCode >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.status(statusCode).send({ statusCode, message: 'Internal server error', error: code });
    }
    return reply.status(statusCode).send({ statusCode, message: clientMessage(error), error: code });
  });
}

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
    reply.status(statusCode).send({ statusCode, message, error: httpErrorCode(statusCode) });
  }
}
