import { STATUS_CODES } from 'node:http';
import { describe, expect, it } from 'vitest';
import { ERROR_STATUS, httpErrorCode, IdentityErrors, isErrorCode } from './index.ts';

describe('error codes', () => {
  it('give every code one error status, and the HTTP names their standard status', () => {
    for (const [code, status] of Object.entries(ERROR_STATUS)) {
      expect(status, code).toBeGreaterThanOrEqual(400);
      if (code.includes(' ') || /^[A-Z][a-z]+$/.test(code)) expect(STATUS_CODES[status], code).toBe(code);
    }
    expect(httpErrorCode(404)).toBe('Not Found');
    expect(httpErrorCode(402)).toBeUndefined();
  });

  it('hold every identity error and nothing outside the list', () => {
    for (const { error } of Object.values(IdentityErrors)) expect(isErrorCode(error), error).toBe(true);
    expect(isErrorCode('FST_ERR_VALIDATION')).toBe(false);
    expect(isErrorCode('toString')).toBe(false);
  });
});
