/**
 * USD as whole millionths (the ledger's numeric(20, 6)) in a bigint: exact decimal arithmetic for
 * amounts read from the database or a provider, never through a binary float.
 */
export function toMicros(amount: string): bigint {
  const match = /^(-?)(\d+)(?:\.(\d{1,6}))?$/.exec(amount.trim());
  if (!match) throw new RangeError(`not an amount in USD with at most 6 decimals: "${amount}"`);
  const micros = BigInt(match[2] ?? '0') * 1_000_000n + BigInt((match[3] ?? '').padEnd(6, '0'));
  return match[1] ? -micros : micros;
}

/** Millionths of USD as decimal text, without trailing zeros: 1_500_000n is "1.5". */
export function fromMicros(micros: bigint): string {
  const sign = micros < 0n ? '-' : '';
  const abs = micros < 0n ? -micros : micros;
  const fraction = (abs % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '');
  return `${sign}${abs / 1_000_000n}${fraction ? `.${fraction}` : ''}`;
}

/** Cents, as card providers count them, in millionths of USD. */
export const centsToMicros = (cents: number): bigint => BigInt(cents) * 10_000n;

export const minMicros = (a: bigint, b: bigint): bigint => (a < b ? a : b);
