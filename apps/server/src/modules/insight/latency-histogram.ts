/**
 * Latency as counts in fixed buckets that grow by a quarter each (the first ends at 0.05 ms, the
 * last, 63 buckets on, past 60 s): two histograms add bucket by bucket, so the figures of many
 * processes and hours merge without losing their percentiles (each read within 12 % of the truth).
 * Stored as arrays without trailing zeros.
 */
const FIRST_BOUND_MS = 0.05;
const GROWTH = 1.25;
export const LATENCY_BUCKETS = 64;
const LOG_GROWTH = Math.log(GROWTH);

/** The bucket a latency falls in. */
export function bucketOf(ms: number): number {
  if (!(ms > FIRST_BOUND_MS)) return 0;
  return Math.min(LATENCY_BUCKETS - 1, Math.ceil(Math.log(ms / FIRST_BOUND_MS) / LOG_GROWTH));
}

/** A bucket's upper bound, ms. */
export const upperBoundOf = (bucket: number): number => FIRST_BOUND_MS * GROWTH ** bucket;

/** Counts `n` latencies of one bucket into a histogram. */
export function addToBucket(histogram: number[], bucket: number, n: number): void {
  while (histogram.length <= bucket) histogram.push(0);
  histogram[bucket] = (histogram[bucket] ?? 0) + n;
}

/** Counts one latency into a histogram. */
export const record = (histogram: number[], ms: number): void => addToBucket(histogram, bucketOf(ms), 1);

/** Adds `from` into `into`. */
export function merge(into: number[], from: readonly number[]): void {
  while (into.length < from.length) into.push(0);
  for (let i = 0; i < from.length; i++) into[i] = (into[i] ?? 0) + (from[i] ?? 0);
}

/**
 * The latency under which a share `q` (0–1) of the calls fell: the middle (geometric) of the bucket
 * it lands in, rounded to a hundredth of a millisecond; 0 for an empty histogram.
 */
export function percentile(histogram: readonly number[], q: number): number {
  let total = 0;
  for (const n of histogram) total += n;
  if (total === 0) return 0;
  const rank = Math.max(1, Math.ceil(q * total));
  let seen = 0;
  for (let i = 0; i < histogram.length; i++) {
    seen += histogram[i] ?? 0;
    if (seen >= rank) {
      const middle = i === 0 ? FIRST_BOUND_MS / 2 : upperBoundOf(i) / Math.sqrt(GROWTH);
      return Math.round(middle * 100) / 100;
    }
  }
  return 0;
}

/**
 * Digits each bucket takes in a histogram written as one decimal number (packCounts). A bucket
 * holds at most 10^16 − 1 calls: ten quadrillion, more than any account makes in the 90 days kept.
 */
export const PACKED_BUCKET_DIGITS = 16;

/**
 * A histogram as one decimal number, bucket i in the digits 16·i to 16·i + 15 counted from the
 * right: adding two such numbers adds the histograms bucket by bucket, so the database sums a
 * range's histograms with one numeric sum() per row instead of one sum per bucket.
 */
export function packCounts(histogram: readonly number[]): string {
  let packed = '';
  for (let i = histogram.length - 1; i >= 0; i--) {
    const count = String(histogram[i] ?? 0);
    packed += packed === '' ? (count === '0' ? '' : count) : count.padStart(PACKED_BUCKET_DIGITS, '0');
  }
  return packed === '' ? '0' : packed;
}

/** The histogram a packed number holds (packCounts), without trailing zeros. */
export function unpackCounts(packed: string): number[] {
  const histogram: number[] = [];
  for (let end = packed.length; end > 0; end -= PACKED_BUCKET_DIGITS) {
    histogram.push(Number(packed.slice(Math.max(0, end - PACKED_BUCKET_DIGITS), end)));
  }
  while (histogram.length > 0 && histogram[histogram.length - 1] === 0) histogram.pop();
  return histogram;
}
