import type { ErrorCode } from '@ebs/contract';

/** A rejected call: `message` is the text to show, `code` the server's `error` code when it sent one of the list. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode | undefined;
  readonly body: unknown;

  constructor(message: string, status: number, code?: ErrorCode, body?: unknown) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.body = body;
  }
}
