/**
 * A fresh idempotency key: a random UUID. `crypto.randomUUID` needs a secure context, so pages
 * served over plain http (not localhost) build the same shape from `crypto.getRandomValues`.
 */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A deposit sent with a key whose outcome is not known yet (the answer was lost, or a 5xx). */
export interface UnsettledDeposit {
  amount: number;
  cardId: string;
  key: string;
}

/**
 * The key for a deposit about to be confirmed: the unsettled one's when it is the same deposit
 * again (so the server answers the first outcome instead of charging twice), a fresh one otherwise.
 */
export const depositKey = (unsettled: UnsettledDeposit | null, amount: number, cardId: string): string =>
  unsettled && unsettled.amount === amount && unsettled.cardId === cardId ? unsettled.key : newIdempotencyKey();

/** A refusal is definite when the server answered it (4xx); anything else may have charged. */
export const isDefiniteRefusal = (error: unknown): boolean =>
  typeof error === 'object' &&
  error !== null &&
  'status' in error &&
  typeof error.status === 'number' &&
  error.status >= 400 &&
  error.status < 500;
