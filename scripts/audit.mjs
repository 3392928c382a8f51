// `npm run audit`: production dependencies must have no high or critical advisory. Where the
// registry offers no advisory service (an offline mirror answers 405), says so and passes: an
// audit that cannot run is reported, not taken for a clean one.
import { spawnSync } from 'node:child_process';

const run = spawnSync('npm', ['audit', '--omit=dev', '--json'], { encoding: 'utf8', timeout: 120_000 });
let report;
try {
  report = JSON.parse(run.stdout);
} catch {
  console.error(`npm audit gave no report:\n${run.stderr}`);
  process.exit(1);
}
if (!report.metadata?.vulnerabilities) {
  console.log(
    `npm audit could not run here (${report.message ?? report.error?.summary ?? 'no advisory service'}): skipped.`,
  );
  process.exit(0);
}
const { high = 0, critical = 0, moderate = 0, low = 0 } = report.metadata.vulnerabilities;
console.log(
  `npm audit, production dependencies: ${critical} critical, ${high} high, ${moderate} moderate, ${low} low.`,
);
if (high + critical > 0) {
  for (const [name, v] of Object.entries(report.vulnerabilities ?? {})) {
    if (v.severity === 'high' || v.severity === 'critical') console.log(`  ${v.severity}: ${name} ${v.range}`);
  }
  process.exit(1);
}
