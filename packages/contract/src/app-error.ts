import { ERROR_STATUS, type ErrorCode } from './errors.ts';
import { IdentityErrors, Messages } from './messages.ts';

/**
 * An error whose message the user sees as it is; `error` is its code from the closed list
 * (errors.ts), which gives its HTTP status. The server's services throw it; its HTTP layer turns it
 * into the `{ statusCode, message, error }` wrapper.
 */
export class AppError extends Error {
  readonly statusCode: number;

  constructor(
    readonly error: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.statusCode = ERROR_STATUS[error];
  }
}

export const badRequest = (message: string) => new AppError('Bad Request', message);
export const forbidden = (message: string) => new AppError('Forbidden', message);
export const notFound = (message: string) => new AppError('Not Found', message);
export const unauthorized = () => new AppError('Unauthorized', Messages.tokenExpired);
export const tokenExpired = () => new AppError('Unauthorized', Messages.cognitoTokenExpired);

type IdentityErrorKey = keyof typeof IdentityErrors;
export const identityError = (key: IdentityErrorKey, message?: string, headers?: Record<string, string>) =>
  new AppError(IdentityErrors[key].error, message ?? IdentityErrors[key].message, headers);
