/**
 * Exact decimal sums of USD amounts that arrive as JSON numbers (e.g. 0.00002 per compute unit):
 * summing the binary floats would show artefacts such as 0.00006000000000000001.
 * A number's shortest text (what `String` gives) is the decimal the server wrote, so each amount
 * is read from that text into an integer of units at its own scale, and the sum is exact.
 */

interface Scaled {
  units: bigint;
  scale: number;
}

const NUMBER_TEXT = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/i;

const pow10 = (n: number) => 10n ** BigInt(n);

function toScaled(value: number): Scaled {
  const match = Number.isFinite(value) ? NUMBER_TEXT.exec(String(value)) : null;
  if (!match) return { units: 0n, scale: 0 };
  const [, sign, whole = '', fraction = '', exponent = '0'] = match;
  let units = BigInt(whole + fraction);
  let scale = fraction.length - Number(exponent);
  if (scale < 0) {
    units *= pow10(-scale);
    scale = 0;
  }
  return { units: sign ? -units : units, scale };
}

function sumScaled(values: readonly number[]): Scaled {
  const parts = values.map(toScaled);
  const scale = Math.max(0, ...parts.map((p) => p.scale));
  const units = parts.reduce((total, p) => total + p.units * pow10(scale - p.scale), 0n);
  return { units, scale };
}

function toText({ units, scale }: Scaled): string {
  const digits = (units < 0n ? -units : units).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = scale > 0 ? `.${digits.slice(digits.length - scale)}` : '';
  return `${units < 0n ? '-' : ''}${whole}${fraction}`;
}

/** The exact sum as a number: the double nearest to the decimal sum, so it prints without artefacts. */
export const sumExact = (values: readonly number[]): number => Number(toText(sumScaled(values)));

/** The exact sum rounded half away from zero to `decimals` places, as text (e.g. "0.13"). */
export function sumFixed(values: readonly number[], decimals: number): string {
  const { units, scale } = sumScaled(values);
  return unitsFixed(units, scale, decimals);
}

/**
 * `units` counted in 10^-scale (e.g. 10^-10 USD) as text with `decimals` places, rounded half away
 * from zero when it has fewer: unitsFixed(100_400_000n, 10, 2) is "0.01".
 */
export function unitsFixed(units: bigint, scale: number, decimals: number): string {
  if (scale <= decimals) return toText({ units: units * pow10(decimals - scale), scale: decimals });
  const divisor = pow10(scale - decimals);
  const magnitude = units < 0n ? -units : units;
  let rounded = magnitude / divisor;
  if ((magnitude % divisor) * 2n >= divisor) rounded += 1n;
  return toText({ units: units < 0n && rounded > 0n ? -rounded : rounded, scale: decimals });
}

const DECIMAL_TEXT = /^(\d+)(?:\.(\d+))?$/;

/**
 * Money the server writes as decimal text ("0.35", "20") as a count of 10^-scale units, exactly;
 * undefined for text that is not a plain decimal or has more places than the scale holds.
 */
export function decimalUnits(text: string, scale: number): bigint | undefined {
  const match = DECIMAL_TEXT.exec(text.trim());
  if (!match) return undefined;
  const [, whole = '', fraction = ''] = match;
  const significant = fraction.replace(/0+$/, '');
  if (significant.length > scale) return undefined;
  return BigInt(whole + significant.padEnd(scale, '0'));
}
