// `npm run bench [-- name ...]`: runs every bench module in scripts/bench/*.ts (or the named
// ones), writes bench-results/<name>.json and prints one table. A module exports
// `run(): Promise<Record<string, number | string>>`; a failing module is reported, not fatal.
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

type BenchModule = {
  run(): Promise<Record<string, number | string>>;
  /** Results file name when several modules report into one file (e.g. renderer.json). */
  resultFile?: string;
};
type Results = Record<string, number | string>;

/** The design's performance targets, checked against the results of the same run. */
const TARGETS: Array<{ file: string; what: string; check: (r: Results) => boolean | null }> = [
  {
    file: 'core',
    what: 'outbox_drain_ops_per_s >= 2.85',
    check: (r) => cmp(r.outbox_drain_ops_per_s, (v) => v >= 2.85),
  },
  { file: 'core', what: 'outbox_429s = 0', check: (r) => cmp(r.outbox_429s, (v) => v === 0) },
  {
    file: 'renderer',
    what: 'cache_write_100k_ms <= 1.5 x raw_idb_write_100k_ms',
    check: (r) => ratio(r.cache_write_100k_ms, r.raw_idb_write_100k_ms, 1.5),
  },
  {
    file: 'renderer',
    what: 'search_p95_ms <= 30',
    check: (r) => cmp(r.search_p95_ms, (v) => v <= 30),
  },
  {
    file: 'renderer',
    what: 'map_idle_100k_ms <= 1.2 x bare_maplibre_idle_100k_ms',
    check: (r) => ratio(r.map_idle_100k_ms, r.bare_maplibre_idle_100k_ms, 1.2),
  },
  {
    file: 'renderer',
    what: 'cold_start_10k_ms <= 2000',
    check: (r) => cmp(r.cold_start_10k_ms, (v) => v <= 2000),
  },
  {
    file: 'renderer',
    what: 'heap_100k_mb <= 500',
    check: (r) => cmp(r.heap_100k_mb, (v) => v <= 500),
  },
  {
    file: 'renderer',
    what: 'heap_map_100k_mb <= 500',
    check: (r) => cmp(r.heap_map_100k_mb, (v) => v <= 500),
  },
  {
    file: 'route-opt',
    what: 'route_opt_100_ms < 1000',
    check: (r) => cmp(r.route_opt_100_ms, (v) => v < 1000),
  },
  {
    file: 'field-day',
    what: 'plan_week_300_ms < 2000',
    check: (r) => cmp(r.plan_week_300_ms, (v) => v < 2000),
  },
  {
    file: 'field-day',
    what: 'nearby_100k_p95_ms < 20',
    check: (r) => cmp(r.nearby_100k_p95_ms, (v) => v < 20),
  },
  {
    file: 'field-day',
    what: 'nearby_100k_worker_p95_ms < 20',
    check: (r) => cmp(r.nearby_100k_worker_p95_ms, (v) => v < 20),
  },
  {
    file: 'plan-quality',
    what: 'week plans within 5% of the best of 20 restarts, never worse than greedy (20 of 20)',
    check: (r) => (typeof r.week_plan_met === 'string' ? r.week_plan_met === 'yes' : null),
  },
  {
    file: 'plan-quality',
    what: 'routes within 1.05 x the best of 50 restarts (30 of 30)',
    check: (r) => (typeof r.route_opt_met === 'string' ? r.route_opt_met === 'yes' : null),
  },
  // The scale targets are issue 26's table: every ratio against a floor of the same run.
  {
    file: 'scale',
    what: 'first_sync_100k_to_map_ms <= 1.3 x baseline_pull_plus_raw_idb_100k_ms',
    check: (r) => ratio(r.first_sync_100k_to_map_ms, r.baseline_pull_plus_raw_idb_100k_ms, 1.3),
  },
  {
    file: 'scale',
    what: 'cold_start_100k_to_map_ms <= 1.4 x baseline_cold_100k_ms',
    check: (r) => ratio(r.cold_start_100k_to_map_ms, r.baseline_cold_100k_ms, 1.4),
  },
  {
    file: 'scale',
    what: 'edit_to_pin_100k_ms <= 250',
    check: (r) => cmp(r.edit_to_pin_100k_ms, (v) => v <= 250),
  },
  {
    file: 'scale',
    what: 'filter_to_map_100k_p95_ms <= 250',
    check: (r) => cmp(r.filter_to_map_100k_p95_ms, (v) => v <= 250),
  },
  {
    file: 'scale',
    what: 'filter_sort_100k_p95_ms <= 100',
    check: (r) => cmp(r.filter_sort_100k_p95_ms, (v) => v <= 100),
  },
  {
    file: 'scale',
    what: 'longest_task_first_sync_ms <= 1.1 x longest_task_bare_map_ms',
    check: (r) => ratio(r.longest_task_first_sync_ms, r.longest_task_bare_map_ms, 1.1),
  },
  {
    file: 'scale',
    what: 'longest_task_cold_start_ms <= 1.1 x longest_task_bare_map_ms',
    check: (r) => ratio(r.longest_task_cold_start_ms, r.longest_task_bare_map_ms, 1.1),
  },
  {
    file: 'scale',
    what: 'longest_app_task_ms <= 100',
    check: (r) => cmp(r.longest_app_task_ms, (v) => v <= 100),
  },
  {
    file: 'scale',
    what: 'main_rss_peak_second_sync_mb <= 400',
    check: (r) => cmp(r.main_rss_peak_second_sync_mb, (v) => v <= 400),
  },
  {
    file: 'scale',
    what: 'edit_revert_100k_ms = 0',
    check: (r) => cmp(r.edit_revert_100k_ms, (v) => v === 0),
  },
  {
    file: 'scale',
    what: 'bulk_355_send_ops_per_s >= 2.7',
    check: (r) => cmp(r.bulk_355_send_ops_per_s, (v) => v >= 2.7),
  },
  {
    file: 'scale',
    what: 'reconnect_3_edits_100k_to_synced_ms <= 10000',
    check: (r) => cmp(r.reconnect_3_edits_100k_to_synced_ms, (v) => v <= 10_000),
  },
  {
    file: 'scale',
    what: 'longest_task_export_ui_ms <= 100',
    check: (r) => cmp(r.longest_task_export_ui_ms, (v) => v <= 100),
  },
  {
    file: 'scale',
    what: 'longest_task_week_plan_ui_ms <= 100',
    check: (r) => cmp(r.longest_task_week_plan_ui_ms, (v) => v <= 100),
  },
  {
    file: 'hostile',
    what: 'hostile_max_loop_delay_ms < 100',
    check: (r) => cmp(r.hostile_max_loop_delay_ms, (v) => v < 100),
  },
  {
    file: 'region-download',
    what: 'region_download_requests <= 1.5 x region_download_min_ranges',
    check: (r) => ratio(r.region_download_requests, r.region_download_min_ranges, 1.5),
  },
];

function cmp(value: unknown, ok: (v: number) => boolean): boolean | null {
  return typeof value === 'number' ? ok(value) : null;
}

function ratio(a: unknown, b: unknown, max: number): boolean | null {
  return typeof a === 'number' && typeof b === 'number' && b > 0 ? a / b <= max : null;
}

async function readResults(file: string): Promise<Results> {
  try {
    return JSON.parse(await readFile(path.join(resultsDir, `${file}.json`), 'utf8')) as Results;
  } catch {
    return {};
  }
}

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
      )) as Partial<BenchModule>;
      // A file without run() holds cases another module runs (hostile-basemap.ts for hostile.ts).
      if (typeof mod.run !== 'function') {
        console.log('not a bench module (no run), skipped');
        continue;
      }
      const result = await mod.run();
      const file = mod.resultFile ?? name;
      // Modules sharing a file merge into it; a module's own keys are replaced by this run's.
      const merged = file === name ? {} : await readResults(file);
      const record = { ...merged, ...result, [`measured_at_${name}`]: new Date().toISOString() };
      await writeFile(
        path.join(resultsDir, `${file}.json`),
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
  console.log('\ntargets (from bench-results/, this run or the last run of each module):');
  for (const t of TARGETS) {
    const verdict = t.check(await readResults(t.file));
    console.log(`  ${verdict === null ? 'n/a ' : verdict ? 'met ' : 'MISS'}  ${t.file}: ${t.what}`);
  }
  return failures === 0 ? 0 : 1;
}

process.exitCode = await main();
