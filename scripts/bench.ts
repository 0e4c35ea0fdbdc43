// `npm run bench [-- name ...]`: runs every bench module in scripts/bench/*.ts (or the named
// ones), writes bench-results/<name>.json and prints one table. A module exports
// `run(): Promise<Record<string, number | string>>`; a failing module is reported, not fatal.
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

type BenchModule = { run(): Promise<Record<string, number | string>> };

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const benchDir = path.join(root, 'scripts', 'bench');
const resultsDir = path.join(root, 'bench-results');

async function main(): Promise<number> {
  const wanted = process.argv.slice(2);
  const names = (await readdir(benchDir))
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .map((f) => f.slice(0, -3))
    .filter((n) => wanted.length === 0 || wanted.includes(n))
    .sort();
  await mkdir(resultsDir, { recursive: true });
  const rows: Array<[string, string, string]> = [];
  let failures = 0;
  for (const name of names) {
    const started = Date.now();
    process.stdout.write(`bench ${name} ... `);
    try {
      const mod = (await import(
        pathToFileURL(path.join(benchDir, `${name}.ts`)).href
      )) as BenchModule;
      const result = await mod.run();
      const record = { ...result, measured_at: new Date().toISOString() };
      await writeFile(
        path.join(resultsDir, `${name}.json`),
        `${JSON.stringify(record, null, 2)}\n`,
      );
      for (const [key, value] of Object.entries(result)) rows.push([name, key, String(value)]);
      console.log(`done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    } catch (e) {
      failures++;
      console.log('FAILED');
      console.error(e);
      rows.push([name, 'error', e instanceof Error ? e.message : String(e)]);
    }
  }
  const width = (i: 0 | 1 | 2) => Math.max(6, ...rows.map((r) => r[i].length));
  const line = (r: [string, string, string]) =>
    `${r[0].padEnd(width(0))}  ${r[1].padEnd(width(1))}  ${r[2].padStart(width(2))}`;
  console.log(`\n${line(['module', 'metric', 'value'])}`);
  for (const r of rows) console.log(line(r));
  return failures === 0 ? 0 : 1;
}

process.exitCode = await main();
