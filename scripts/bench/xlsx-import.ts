// Bench module (run by scripts/bench.ts): reading an Excel import in main (src-main/core/xlsx/).
// A 50,000-row, 12-column workbook as a rep's list would be (shared strings, numbers, "00000"
// zip codes, dates), built with the tests' writer, read 3 times after a warm-up.
// - xlsx_50k_read_ms: median wall time of readXlsx, bytes to the table the dialog maps.
// - xlsx_50k_longest_stall_ms: median of each read's longest event-loop stall (a 1 ms interval's
//   largest gap): how long main's IPC and sync wait at most while a sheet is read.
// - xlsx_50k_file_mb: the workbook's size (the import takes up to 20 MB).
import { readXlsx } from '../../src-main/core/xlsx/read-xlsx';
import { buildXlsx, type XlsxCell } from '../../test/support/xlsx-file';
import { median, round } from './support/stats';

const ROWS = 50_000;

function workbook(): Uint8Array {
  const header = 'Name,Company,Street,City,Zip,Lat,Lng,Deal,Last visit,Colour,Notes,Phone';
  const rows: XlsxCell[][] = [header.split(',')];
  for (let i = 0; i < ROWS; i++) {
    rows.push([
      `Customer ${i}`,
      `Company ${i % 997}`,
      `${i} Main Street`,
      `City ${i % 300}`,
      { v: 1000 + (i % 90_000), s: 1 },
      40 + i / 1e5,
      -89 - i / 1e5,
      i * 3.5,
      { v: 45_000 + (i % 900), s: 2 },
      'red',
      `note about customer ${i} with a few words`,
      `555-${String(i).padStart(6, '0')}`,
    ]);
  }
  return buildXlsx({
    sheets: [{ name: 'Customers', rows }],
    numFmts: [{ id: 164, code: '00000' }],
    styles: [164, 14],
  });
}

async function timedRead(bytes: Uint8Array): Promise<{ ms: number; stallMs: number }> {
  let last = performance.now();
  let stall = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    stall = Math.max(stall, now - last);
    last = now;
  }, 1);
  const t0 = performance.now();
  const table = await readXlsx(bytes);
  const ms = performance.now() - t0;
  clearInterval(timer);
  if (table.rows.length !== ROWS) throw new Error(`read ${table.rows.length} rows`);
  return { ms, stallMs: Math.max(stall, performance.now() - last) };
}

export async function run(): Promise<Record<string, number>> {
  const bytes = workbook();
  await timedRead(bytes);
  const runs = [];
  for (let i = 0; i < 3; i++) runs.push(await timedRead(bytes));
  return {
    xlsx_50k_read_ms: round(median(runs.map((r) => r.ms))),
    xlsx_50k_longest_stall_ms: round(median(runs.map((r) => r.stallMs))),
    xlsx_50k_file_mb: round(bytes.length / 1024 / 1024, 2),
  };
}
