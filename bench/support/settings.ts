/** A whole-number setting from the environment (BENCH_…), or its default; anything else is refused. */
export function wholeSetting(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a whole number above 0 (got "${raw}")`);
  return value;
}
