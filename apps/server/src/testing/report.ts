/**
 * One line of figures from a reliability test (requests held, faults survived, inputs tried), in
 * the test's output, so that docs/reliability.md can quote a run: `RELIABILITY <promise> | k=v …`.
 */
export function reportFigures(promise: string, figures: Record<string, number | string>): void {
  const pairs = Object.entries(figures).map(([key, value]) => `${key}=${value}`);
  process.stdout.write(`RELIABILITY ${promise} | ${pairs.join(' ')}\n`);
}
