import { IdentityErrors } from '@ebs/contract';
import { expect } from 'vitest';
import type { Answer } from './client.ts';

/** The answer a rate limit gives: 429 with the spec's "limit exceeded" error and a Retry-After. */
export function expectLimited(answer: Answer): void {
  expect({ status: answer.status, message: answer.body.message, error: answer.body.error }).toEqual({
    status: 429,
    message: IdentityErrors.limitExceeded.message,
    error: IdentityErrors.limitExceeded.error,
  });
  expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
}
