// Updates test/durations.json (seconds per test file) from the last `npm test` run's JSON report
// (.vitest-results.json), for the longest-first file order (test/support/longest-first.ts). The
// files that run measured get their new time; the others keep theirs; a file gone from the
// repository leaves the list. Run it after a run that added files or changed their times much.
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
const path = resolve(root, 'test/durations.json');
const durations = existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : {};
let measured = 0;
for (const file of report.testResults) {
  const name = inRepo(file.name);
  if (name === null) continue;
  durations[name] = Math.max(1, Math.round((file.endTime - file.startTime) / 1000));
  measured++;
}
for (const name of Object.keys(durations))
  if (!existsSync(resolve(root, name))) delete durations[name];
const sorted = Object.fromEntries(Object.entries(durations).sort(([a], [b]) => (a < b ? -1 : 1)));
writeFileSync(path, `${JSON.stringify(sorted, null, 2)}\n`);
console.log(
  `test-durations: ${measured} files measured, ${Object.keys(sorted).length} in test/durations.json`,
);
