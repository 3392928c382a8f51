import type { RpcAnswer } from './keys.ts';

export type GatewayAnswer = { status: number; body: RpcAnswer };

/** The key passed the gateway's check (a 429 comes from the rate limit behind it). */
export const accepted = (a: { status: number }) => a.status === 200 || a.status === 429;

export const refusedWith = (status: number, message: string) => (a: GatewayAnswer) =>
  a.status === status && a.body.error?.message === message;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * How long a change takes to reach each process: from the moment `change` returns, calls through
 * each process every 20 ms until it answers as `done` says; answers each process's milliseconds.
 */
export async function propagation<P extends { url: string }>(
  processes: P[],
  call: (process: P) => Promise<GatewayAnswer>,
  change: () => Promise<void>,
  done: (a: GatewayAnswer) => boolean,
): Promise<number[]> {
  await change();
  const since = performance.now();
  return Promise.all(
    processes.map(async (p) => {
      for (;;) {
        const answer = await call(p);
        const elapsed = performance.now() - since;
        if (done(answer)) return elapsed;
        if (elapsed > 10_000) throw new Error(`${p.url} still answers ${answer.status} after 10 s`);
        await sleep(20);
      }
    }),
  );
}
