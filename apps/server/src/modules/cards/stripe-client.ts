import { createHash } from 'node:crypto';
import { AppError } from '@ebs/contract';
import Stripe from 'stripe';
import type { Config } from '../../config.ts';

/**
 * The official SDK, set up from the configuration: the secret key stays inside it (never logged,
 * never answered), STRIPE_API_BASE points it elsewhere (tests; stripe-mock). Its retries reuse
 * the idempotency key of the request they repeat, so a retried charge is never a second charge.
 */
export function stripeClient(config: Pick<Config, 'STRIPE_SECRET_KEY' | 'STRIPE_API_BASE'>): Stripe {
  if (!config.STRIPE_SECRET_KEY) throw new Error('STRIPE_SECRET_KEY is not set');
  const base = config.STRIPE_API_BASE ? new URL(config.STRIPE_API_BASE) : undefined;
  const protocol = base?.protocol === 'http:' ? 'http' : 'https';
  return new Stripe(config.STRIPE_SECRET_KEY, {
    maxNetworkRetries: 3,
    timeout: 30_000,
    appInfo: { name: 'ebs-console' },
    ...(base ? { host: base.hostname, port: base.port || (protocol === 'http' ? 80 : 443), protocol } : {}),
  });
}

/**
 * "19.99" as 1999 cents, by digits (never through a binary float, where 19.99 * 100 is
 * 1998.9999999999998). A fraction of a cent, a sign or anything else is refused.
 */
export function toCents(amount: string): number {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(amount.trim());
  if (!match) throw new Error(`not an amount in USD: "${amount}"`);
  const fraction = (match[2] ?? '').padEnd(2, '0');
  if (/[1-9]/.test(fraction.slice(2))) throw new Error(`${amount} USD has a fraction of a cent`);
  const cents = BigInt(match[1] ?? '0') * 100n + BigInt(fraction.slice(0, 2));
  if (cents > BigInt(Number.MAX_SAFE_INTEGER)) throw new Error(`${amount} USD is too large`);
  return Number(cents);
}

/**
 * The console's idempotency key as Stripe takes it (at most 255 characters) and as a search query
 * can quote it: the key itself when it is plain, otherwise its SHA-256.
 */
export function stripeKey(key: string): string {
  return /^[A-Za-z0-9:_-]{1,200}$/.test(key) ? key : `sha256-${createHash('sha256').update(key).digest('hex')}`;
}

export const isStripeError = (error: unknown): error is Stripe.errors.StripeError =>
  error instanceof Stripe.errors.StripeError;

/** Stripe's answer that the object does not exist (a detached or deleted card, a wrong id). */
export const isMissing = (error: unknown) =>
  isStripeError(error) && error.statusCode === 404 && error.code === 'resource_missing';

/**
 * A Stripe failure as the console reports it. A card error is the card holder's to read: Stripe's
 * own message (spec A §8). Anything else (a bad key, an outage, a bug) is the operator's: a plain
 * error, logged and answered as an internal error, so that Stripe's status code (401 for a bad
 * key) never reaches the browser as if it were the console's.
 */
export function asConsoleError(error: unknown): Error {
  if (!isStripeError(error)) return error instanceof Error ? error : new Error(String(error));
  if (error instanceof Stripe.errors.StripeCardError) return new AppError('card_error', error.message);
  const failure = new Error(`Stripe ${error.type}${error.code ? ` (${error.code})` : ''}: ${error.message}`);
  if (error.requestId) failure.message += ` [request ${error.requestId}]`;
  return failure;
}

/** Runs one Stripe call, its failure turned into the console's (asConsoleError). */
export async function call<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw asConsoleError(error);
  }
}
