import { IdentityErrors, Messages } from '@ebs/contract';
import type { FastifyError, FastifyInstance } from 'fastify';

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
    return reply.status(statusCode).send({ statusCode, message: error.message, error: error.code ?? 'Error' });
  });
}
