/** Polls `check` every `everyMs` until it answers something truthy, or fails with `what` after `ms`. */
export async function until<T>(
  what: string,
  check: () => Promise<T | undefined | false>,
  ms = 30_000,
  everyMs = 50,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`not in time: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
