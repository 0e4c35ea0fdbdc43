// Writes test/durations.json (seconds per test file) from the last `npm test` run's JSON report
// (.vitest-results.json), for the longest-first file order (test/support/longest-first.ts). Run it
// after a full `npm test` when files were added or their times changed much; a partial run would
// drop the files it did not run, so it refuses one.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const report = JSON.parse(readFileSync(resolve(root, '.vitest-results.json'), 'utf8'));
/** The file's path in this repository (the report may come from another clone, e.g. CI's). */
const inRepo = (path) => {
  const parts = path.split(/[\\/]/);
  // From the longest relative suffix (never the whole, absolute path: that names the other clone).
  for (let i = 1; i < parts.length; i++) {
    const name = parts.slice(i).join('/');
    if (existsSync(resolve(root, name))) return name;
  }
  return null;
};
const durations = {};
for (const file of report.testResults) {
  const name = inRepo(file.name);
  if (name === null) continue;
  durations[name] = Math.max(1, Math.round((file.endTime - file.startTime) / 1000));
}
const files = Object.keys(durations).length;
if (report.numPendingTestSuites > 0 || files < 100) {
  console.error(`test-durations: the last run had ${files} files; run the whole of npm test first`);
  process.exit(1);
}
const sorted = Object.fromEntries(Object.entries(durations).sort(([a], [b]) => (a < b ? -1 : 1)));
writeFileSync(resolve(root, 'test/durations.json'), `${JSON.stringify(sorted, null, 2)}\n`);
console.log(`test-durations: ${files} files written to test/durations.json`);
