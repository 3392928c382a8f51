import { describe, expect, it } from 'vitest';
import { depositKey, isDefiniteRefusal, newIdempotencyKey } from './idempotency';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('newIdempotencyKey', () => {
  it('answers a new UUID each time', () => {
    const first = newIdempotencyKey();
    expect(first).toMatch(UUID);
    expect(newIdempotencyKey()).not.toBe(first);
  });

  it('builds a UUID without crypto.randomUUID (an insecure context)', () => {
    const own = Object.getOwnPropertyDescriptor(crypto, 'randomUUID');
    Object.defineProperty(crypto, 'randomUUID', { value: undefined, configurable: true });
    try {
      expect(newIdempotencyKey()).toMatch(UUID);
    } finally {
      if (own) Object.defineProperty(crypto, 'randomUUID', own);
      else Reflect.deleteProperty(crypto, 'randomUUID');
    }
    expect(typeof crypto.randomUUID).toBe('function');
  });
});

describe('deposit keys', () => {
  const unsettled = { amount: 25, cardId: 'c1', key: 'first-key' };

  it('reuses the key of an unsettled deposit when the same deposit is confirmed again', () => {
    expect(depositKey(unsettled, 25, 'c1')).toBe('first-key');
  });

  it('makes a new key for another amount, another card, or when nothing is unsettled', () => {
    expect(depositKey(unsettled, 30, 'c1')).not.toBe('first-key');
    expect(depositKey(unsettled, 25, 'c2')).not.toBe('first-key');
    expect(depositKey(null, 25, 'c1')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('counts only answered refusals (4xx) as definite', () => {
    expect(isDefiniteRefusal({ status: 402 })).toBe(true);
    expect(isDefiniteRefusal({ status: 400 })).toBe(true);
    expect(isDefiniteRefusal({ status: 502 })).toBe(false);
    expect(isDefiniteRefusal(new TypeError('Failed to fetch'))).toBe(false);
  });
});
