// The gateway's share of the soak: JSON-RPC calls and batches at a steady rate, spread over several
// keys and networks, every answer checked against what the fixed-answer upstream says.
import { rpcUrl } from '@ebs/contract';
import { Pool } from 'undici';
import { FIXED_RESULT } from '../support/fixed-upstream.ts';
import { RPC_BODY, rpcBatch } from '../support/load.ts';
import { type Tally, timed } from './tally.ts';

/** One API key's gateway address on one network. */
export interface GatewayTarget {
  keyId: string;
  secret: string;
  network: string;
}

/** The calls each key made that the gateway answered, to hold against what it metered. */
export class CallCounts {
  readonly byKey = new Map<string, number>();

  add(keyId: string, calls: number): void {
    this.byKey.set(keyId, (this.byKey.get(keyId) ?? 0) + calls);
  }

  get total(): number {
    let sum = 0;
    for (const n of this.byKey.values()) sum += n;
    return sum;
  }
}

/** The fixed upstream answers id 1, or ids 1..n in order for a batch: anything else is wrong. */
function checkAnswer(status: number, text: string, calls: number): string | undefined {
  if (status !== 200) return `HTTP ${status}: ${text.slice(0, 200)}`;
  let answer: unknown;
  try {
    answer = JSON.parse(text);
  } catch {
    return `not JSON: ${text.slice(0, 200)}`;
  }
  const items = calls === 1 ? [answer] : answer;
  if (!Array.isArray(items) || items.length !== calls) return `expected ${calls} answers: ${text.slice(0, 200)}`;
  for (const [i, item] of items.entries()) {
    const { id, result } = item as { id?: unknown; result?: unknown };
    if (id !== i + 1 || result !== FIXED_RESULT) return `wrong answer ${i + 1}: ${JSON.stringify(item).slice(0, 200)}`;
  }
  return undefined;
}

export class Gateway {
  private readonly pool: Pool;

  constructor(
    private readonly baseUrl: string,
    private readonly tally: Tally,
    readonly counts: CallCounts,
  ) {
    this.pool = new Pool(baseUrl, { connections: 32, headersTimeout: 20_000, bodyTimeout: 20_000 });
  }

  /** One request of `calls` calls (1: a single call) through the gateway, answer checked and counted. */
  async send(target: GatewayTarget, calls: number): Promise<void> {
    const url = new URL(rpcUrl(this.baseUrl, target.network, target.keyId, target.secret));
    try {
      const { value, ms } = await timed(async () => {
        const answer = await this.pool.request({
          method: 'POST',
          path: `${url.pathname}${url.search}`,
          headers: { 'content-type': 'application/json' },
          body: calls === 1 ? RPC_BODY : rpcBatch(calls),
        });
        return { status: answer.statusCode, text: await answer.body.text() };
      });
      const wrong = checkAnswer(value.status, value.text, calls);
      if (wrong) this.tally.fail(`gateway ${target.network} key ${target.keyId}: ${wrong}`, ms);
      else {
        this.tally.ok(ms);
        this.counts.add(target.keyId, calls);
      }
    } catch (error) {
      this.tally.fail(`gateway ${target.network} key ${target.keyId}: ${(error as Error).message}`);
    }
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

export interface SteadyLoad {
  /** HTTP requests per second, all targets together. */
  rate: number;
  /** One request in this many is a batch. */
  batchEvery: number;
  batchSize: number;
}

/** Requests in flight past which the generator stops sending and counts the shortfall instead. */
const MAX_IN_FLIGHT = 256;

/**
 * Sends `rate` requests a second, round robin over the targets, until stopped. A server that falls
 * behind does not pile up unbounded work: sends beyond MAX_IN_FLIGHT are counted as `behind`.
 */
export function steadyTraffic(gateway: Gateway, targets: GatewayTarget[], load: SteadyLoad) {
  const started = performance.now();
  const inFlight = new Set<Promise<void>>();
  let sent = 0;
  let behind = 0;
  const tick = () => {
    const due = Math.floor(((performance.now() - started) / 1000) * load.rate);
    for (; sent < due; sent++) {
      if (inFlight.size >= MAX_IN_FLIGHT) {
        behind++;
        continue;
      }
      const target = targets[sent % targets.length] as GatewayTarget;
      const calls = sent % load.batchEvery === load.batchEvery - 1 ? load.batchSize : 1;
      const request = gateway.send(target, calls).finally(() => inFlight.delete(request));
      inFlight.add(request);
    }
  };
  const timer = setInterval(tick, 10);
  return {
    get behind() {
      return behind;
    },
    /** Stops sending and waits for the answers of what was sent. */
    async stop(): Promise<void> {
      clearInterval(timer);
      await Promise.all(inFlight);
    },
  };
}
