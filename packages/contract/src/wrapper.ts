import { type TSchema, Type } from '@sinclair/typebox';
import { ERROR_STATUS, type ErrorCode } from './errors.ts';

/** Every successful API answer: `{ statusCode, message, data }`. */
export const Wrapped = <T extends TSchema>(data: T) =>
  Type.Object({ statusCode: Type.Integer(), message: Type.String(), data });

/** The data of an answer that carries only its message. */
export const Empty = Type.Object({});

/** Every error answer, sent with a non-2xx HTTP status; `message` is the text the user sees. */
export const ErrorBody = Type.Object({
  statusCode: Type.Integer(),
  message: Type.String(),
  /** A code of the closed list (errors.ts), which fixes statusCode. */
  error: Type.Unsafe<ErrorCode>(Type.String({ enum: Object.keys(ERROR_STATUS) })),
});

export interface ApiWrapper<T> {
  statusCode?: number;
  status?: number;
  message?: string;
  data: T;
}

export interface ApiErrorBody {
  statusCode: number;
  message: string;
  error: ErrorCode;
}

/**
 * The spec's lenient success rule (spec A §5), kept as described: a wrapper counts as success
 * when its statusCode is at least 200 or its status is below 300.
 */
export function isSuccessWrapper(body: { statusCode?: unknown; status?: unknown } | null | undefined): boolean {
  if (!body || typeof body !== 'object') return false;
  const { statusCode, status } = body;
  return (typeof statusCode === 'number' && statusCode >= 200) || (typeof status === 'number' && status < 300);
}
