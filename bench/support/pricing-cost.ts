import pino from 'pino';
import type { Db } from '../../apps/server/src/db/database.ts';
import { memoryRateLimiter } from '../../apps/server/src/http/rate-limit.ts';
import { MethodPolicy } from '../../apps/server/src/modules/rpc/method-policy.ts';
import { PriceBook } from '../../apps/server/src/modules/rpc/price-book.ts';
import { screenCalls } from '../../apps/server/src/modules/rpc/request-plan.ts';
import { parseRpcBody } from '../../apps/server/src/modules/rpc/rpc-request.ts';
import { SpendingGuard } from '../../apps/server/src/modules/rpc/spending-guard.ts';

const RESOURCE = 'RPC_API_POLYGON_MAINNET';

/**
 * What pricing adds to a request, in-process and alone: the body's parse and screen with every call
 * priced by its class, its cost summed at the meter, the account's cap checked and its spend counted
 * (the prices and caps as the gateway holds them in memory), beside the same parse and screen with
 * no pricing. Best of several timed loops, in microseconds.
 */
export function pricingCost(body: string): { unpricedUs: number; pricedUs: number } {
  const log = pino({ level: 'silent' });
  // Nothing here reads the database: the prices and caps are the defaults held in memory.
  const db = undefined as unknown as Db;
  const prices = new PriceBook(db, log);
  const spending = new SpendingGuard(db, memoryRateLimiter(), async () => new Map(), log);
  const methods = new MethodPolicy();
  const unpriced = () => {
    const parsed = parseRpcBody(body, 1000);
    if (screenCalls('bench', parsed, methods, null, () => 0).passing < parsed.calls) throw new Error('kept back');
  };
  const unitsOf = prices.unitsOf.bind(prices);
  const priced = () => {
    const parsed = parseRpcBody(body, 1000);
    const plan = screenCalls('bench', parsed, methods, null, unitsOf);
    if (plan.passing < parsed.calls || spending.refusal('bench') !== null) throw new Error('kept back');
    const units = prices.costOf(plan);
    spending.spent('bench', units * prices.unitPrice(RESOURCE));
  };
  const time = (once: () => void) => {
    const n = 20_000;
    let best = Number.POSITIVE_INFINITY;
    for (let round = 0; round < 7; round++) {
      const started = process.hrtime.bigint();
      for (let i = 0; i < n; i++) once();
      best = Math.min(best, Number(process.hrtime.bigint() - started) / 1000 / n);
    }
    return best;
  };
  time(unpriced);
  time(priced);
  return { unpricedUs: time(unpriced), pricedUs: time(priced) };
}
