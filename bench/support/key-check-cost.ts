import { hashApiKey } from '../../apps/server/src/modules/keys/api-key-secret.ts';
import { keyRefusal } from '../../apps/server/src/modules/keys/key-access.ts';
import type { KeyState } from '../../apps/server/src/modules/keys/key-cache.ts';
import { KeyPolicy } from '../../apps/server/src/modules/keys/key-policy.ts';
import { MethodPolicy } from '../../apps/server/src/modules/rpc/method-policy.ts';
import { screenCalls } from '../../apps/server/src/modules/rpc/request-plan.ts';
import { parseRpcBody } from '../../apps/server/src/modules/rpc/rpc-request.ts';

export interface KeyLists {
  allowedOrigins: string[];
  allowedIps: string[];
  allowedMethods: string[];
  allowedContracts: string[];
}

const SECRET = 'bench-secret-bench-secret-bench-secret-0000';

function stateOf(policy: KeyPolicy | null): KeyState {
  return {
    accountId: 'bench',
    version: '1',
    keyHash: hashApiKey(SECRET),
    previousKeyHash: null,
    previousUntil: 0,
    active: true,
    deleted: false,
    accountEnabled: true,
    expiresAt: null,
    jwt: null,
    policy,
    limits: { requestsPerSecond: null, requestsPerDay: null, computeUnitsPerSecond: null, computeUnitsPerDay: null },
  };
}

/**
 * The gateway's own per-request work that a key's rules touch, in-process and alone: the key check
 * (secret, state, origin, address) and the body's parse and screen (methods, contracts), for a key
 * without rules and for one with the lists given. Best of several timed loops, in microseconds.
 */
export function keyCheckCost(lists: KeyLists, origin: string, body: string): { plainUs: number; lockedUs: number } {
  const request = { key: SECRET, authorization: undefined, origin, referer: undefined, ip: '127.0.0.1' };
  const methods = new MethodPolicy();
  const once = (state: KeyState) => {
    if (keyRefusal(state, request) !== null) throw new Error('the bench request was refused');
    const parsed = parseRpcBody(body, 1000);
    const screened = screenCalls(state.accountId, parsed, methods, state.policy, () => 1);
    if (screened.passing < parsed.calls) throw new Error('the bench body was kept back');
  };
  const time = (state: KeyState) => {
    const n = 20_000;
    let best = Number.POSITIVE_INFINITY;
    for (let round = 0; round < 7; round++) {
      const started = process.hrtime.bigint();
      for (let i = 0; i < n; i++) once(state);
      best = Math.min(best, Number(process.hrtime.bigint() - started) / 1000 / n);
    }
    return best;
  };
  const plain = stateOf(null);
  const locked = stateOf(KeyPolicy.of(lists));
  time(plain);
  time(locked);
  return { plainUs: time(plain), lockedUs: time(locked) };
}
