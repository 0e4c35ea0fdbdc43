// Bench module (run by scripts/bench.ts): hostile files never take main down (issue 30). Each
// case runs one crafted input through main's real code path while main's event loop is watched
// (perf_hooks.monitorEventLoopDelay, and a 5 ms drift probe for what the histogram's resolution
// would round off); the inputs are built before their case starts, so only main's work is seen.
// - hostile_max_loop_delay_ms: the largest delay of main's loop over every case (target < 100).
// - hostile_<case>_loop_delay_ms: each case's largest delay.
// - hostile_idle_loop_delay_ms: the same measure over 2 s of doing nothing, run first: what the
//   machine's own load adds to every figure (on a shared 2-core machine it is not zero).
// - hostile_csv_<case>_loop_delay_ms, hostile_csv_max_loop_delay_ms: the renderer's import
//   path for CSV (readImportFile), run here in Node: the page's thread, not main's, so kept
//   out of the main figure.
// A case that does not end in a refusal fails the bench: it would mean the input was read.
import { openAsBlob } from 'node:fs';
import { mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { readSpreadsheet } from '../../src-main/app/spreadsheet-import';
import { readImportFile } from '../../src-renderer/src/features/import-export/import-file';
import { hostileWorkbooks } from '../../test/support/hostile-xlsx';
import { basemapHostileCases } from './hostile-basemap';
import { round } from './support/stats';

/** One crafted input and the run of main's code on it; other halves of the issue add theirs. */
export interface HostileCase {
  name: string;
  run: () => Promise<void>;
}

/** Resolves when `work` was refused; throws when it gave a result. */
async function refused(work: Promise<unknown>, name: string): Promise<void> {
  const outcome = await work.then(
    () => 'read',
    () => 'refused',
  );
  if (outcome !== 'refused') throw new Error(`${name} was read, not refused`);
}

/** The crafted workbooks through 'import:read-spreadsheet' (readSpreadsheet, its worker). */
function spreadsheetCases(): HostileCase[] {
  return hostileWorkbooks().map((hostile) => {
    const base64 = Buffer.from(hostile.bytes()).toString('base64');
    return {
      name: `xlsx_${hostile.name}`,
      run: () => refused(readSpreadsheet({ fileName: hostile.name, base64 }), hostile.name),
    };
  });
}

/** CSV files through the renderer's import path, as real files on disk. */
async function csvCases(dir: string): Promise<HostileCase[]> {
  const api = { readSpreadsheet: () => Promise.reject(new Error('a CSV never goes to main')) };
  const file = async (name: string, content: string | number) => {
    const path = join(dir, name);
    if (typeof content === 'number') {
      await writeFile(path, '');
      await truncate(path, content);
    } else await writeFile(path, content);
    return new File([await openAsBlob(path)], name);
  };
  const inputs = [
    await file('one-500mb-line.csv', 500 * 1024 * 1024),
    await file('millions-of-columns.csv', `Name\n${'x,'.repeat(15_000_000)}x\n`),
    await file('millions-of-rows.csv', `Name\n${'x\n'.repeat(15_000_000)}`),
  ];
  return inputs.map((input) => ({
    name: input.name,
    run: () => refused(readImportFile(input, api), input.name),
  }));
}

/** `hostile_<name>_loop_delay_ms` for a case name. */
const key = (prefix: string, name: string) =>
  `${prefix}_${name.replace(/\.[a-z]+$/, '').replace(/[^a-z0-9]+/gi, '_')}_loop_delay_ms`;

/** The largest delay of this thread's event loop while `work` runs, ms. */
async function loopDelayOver(work: () => Promise<void>): Promise<number> {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  let last = performance.now();
  let drift = 0;
  const probe = setInterval(() => {
    const now = performance.now();
    drift = Math.max(drift, now - last - 5);
    last = now;
  }, 5);
  histogram.enable();
  try {
    await work();
  } finally {
    histogram.disable();
    clearInterval(probe);
  }
  drift = Math.max(drift, performance.now() - last - 5);
  return Math.max(histogram.max / 1e6, drift);
}

async function measure(prefix: string, cases: HostileCase[]): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  let max = 0;
  for (const c of cases) {
    const ms = await loopDelayOver(c.run);
    out[key(prefix, c.name)] = round(ms, 1);
    max = Math.max(max, ms);
  }
  out[`${prefix}_max_loop_delay_ms`] = round(max, 1);
  return out;
}

export async function run(): Promise<Record<string, number>> {
  const dir = await mkdtemp(join(tmpdir(), 'fieldmap-bench-hostile-'));
  const cleanup: HostileCase[] = [];
  try {
    const main: HostileCase[] = [...spreadsheetCases()];
    // The map-source half: PMTiles, region sources, the tile proxy; its last case shuts its
    // servers and services down and is not an input.
    const basemap = await basemapHostileCases();
    main.push(...basemap.filter((c) => c.name !== 'close'));
    cleanup.push(...basemap.filter((c) => c.name === 'close'));
    // A warm-up: the first worker's start is not a hostile input's cost.
    await readSpreadsheet({ fileName: 'warm-up.xlsx', base64: '' }).catch(() => undefined);
    const idle = await loopDelayOver(() => new Promise((resolve) => setTimeout(resolve, 2_000)));
    const results = await measure('hostile', main);
    return {
      hostile_idle_loop_delay_ms: round(idle, 1),
      ...results,
      ...(await measure('hostile_csv', await csvCases(dir))),
    };
  } finally {
    for (const c of cleanup) await c.run();
    await rm(dir, { recursive: true, force: true });
  }
}
