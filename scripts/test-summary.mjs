// Prints the closing line of `npm test` from vitest's JSON report.
import { readFileSync } from 'node:fs';

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
console.log(`tests: ${report.numPassedTests} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || report.numPassedTests === 0 ? 1 : 0);
