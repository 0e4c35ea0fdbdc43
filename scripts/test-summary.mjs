// Prints the closing line of `npm test` from vitest's JSON report. With FIELDMAP_TEST_NO_SKIPS=1
// (a full run, or any run under CI) a skipped or todo test fails the run and is named: a suite
// that skips itself (the keychain suites when no Secret Service answers) must not pass silently.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

const file = process.argv[2];
let report;
try {
  report = JSON.parse(readFileSync(file, 'utf8'));
} catch (error) {
  console.log(`tests: 0 passed, 1 failed (no report at ${file}: ${error.message})`);
  process.exit(1);
}
const failedSuites = report.testResults.filter(
  (r) => r.status === 'failed' && r.assertionResults.length === 0,
).length;
const failed = report.numFailedTests + failedSuites;
const skipped = report.numPendingTests + report.numTodoTests;
const noSkips = process.env.FIELDMAP_TEST_NO_SKIPS === '1';

if (noSkips && skipped > 0) {
  console.log(`Skipped tests fail a full run (or any run under CI):`);
  for (const suite of report.testResults) {
    const names = suite.assertionResults
      .filter((a) => a.status === 'pending' || a.status === 'skipped' || a.status === 'todo')
      .map((a) => a.fullName);
    if (names.length === 0) continue;
    console.log(`  ${relative(process.cwd(), suite.name)}: ${names.length} skipped`);
    for (const name of names.slice(0, 3)) console.log(`    - ${name}`);
    if (names.length > 3) console.log(`    - … and ${names.length - 3} more`);
  }
}
console.log(`tests: ${report.numPassedTests} passed, ${failed} failed, ${skipped} skipped`);
const ok = failed === 0 && report.numPassedTests > 0 && !(noSkips && skipped > 0);
process.exit(ok ? 0 : 1);
