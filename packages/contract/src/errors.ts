/** The HTTP names (RFC 9110) of the statuses the API answers with, for the general cases. */
const HTTP_ERRORS = {
  'Bad Request': 400,
  Unauthorized: 401,
  Forbidden: 403,
  'Not Found': 404,
  'Method Not Allowed': 405,
  'Not Acceptable': 406,
  'Request Timeout': 408,
  Conflict: 409,
  'Payload Too Large': 413,
  'URI Too Long': 414,
  'Unsupported Media Type': 415,
  'Too Many Requests': 429,
  'Request Header Fields Too Large': 431,
  'Internal Server Error': 500,
  'Service Unavailable': 503,
} as const;

/**
 * Every `error` an error answer can carry, each with its one HTTP status: a closed list a client
 * can switch on. The HTTP names; the names a hosted identity provider reports, which the console's
 * sign-in pages were written against; and `card_error` for a card the bank or processor refused.
 * The message beside it stays the spec's text.
 */
export const ERROR_STATUS = {
  ...HTTP_ERRORS,
  NotAuthorizedException: 400,
  UserNotConfirmedException: 400,
  CodeMismatchException: 400,
  ExpiredCodeException: 400,
  UsernameExistsException: 400,
  InvalidPasswordException: 400,
  InvalidParameterException: 400,
  LimitExceededException: 429,
  card_error: 402,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export const isErrorCode = (value: unknown): value is ErrorCode =>
  typeof value === 'string' && Object.hasOwn(ERROR_STATUS, value);

/** The HTTP name of a status (404 → "Not Found"); undefined for a status the API never answers. */
export const httpErrorCode = (status: number): ErrorCode | undefined =>
  (Object.keys(HTTP_ERRORS) as (keyof typeof HTTP_ERRORS)[]).find((code) => HTTP_ERRORS[code] === status);
