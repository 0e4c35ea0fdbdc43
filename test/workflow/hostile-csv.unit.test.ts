// Hostile CSV files (issue 30) through the renderer's import path (readImportFile, where a
// picked file enters): a 500 MB file of one line is refused by its size before it is read, a
// row of millions of columns and millions of rows before papaparse builds them; each refusal
// names the file and why. A real file on disk, opened as the browser hands a picked file over
// (a File backed by the file), so the 500 MB are never in memory.
import { openAsBlob } from 'node:fs';
import { mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readImportFile } from '../../src-renderer/src/features/import-export/import-file';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fieldmap-hostile-csv-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A picked file: a real file on disk, read through a File as the page gets one. */
async function picked(name: string, content: string | number): Promise<File> {
  const path = join(dir, name);
  if (typeof content === 'number') {
    await writeFile(path, '');
    await truncate(path, content);
  } else await writeFile(path, content);
  return new File([await openAsBlob(path)], name);
}

const api = {
  readSpreadsheet: () => Promise.reject(new Error('a CSV never goes to main')),
};

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => 'read',
    (error: unknown) => (error instanceof Error ? error.message : String(error)),
  );

describe('hostile CSV files', () => {
  it('refuses a 500 MB file of one line by its size, before reading it', async () => {
    const file = await picked('everyone.csv', 500 * 1024 * 1024);
    expect(file.size).toBe(500 * 1024 * 1024);
    expect(await refusal(readImportFile(file, api))).toBe(
      '"everyone.csv" was not read. This CSV file is 500 MB; Fieldmap imports files up to 32 MB. Save the customers you need as smaller files.',
    );
  });

  it('refuses a row of millions of columns before parsing it', async () => {
    const file = await picked('wide.csv', `Name,City\n${'x,'.repeat(3_000_000)}x\n`);
    expect(await refusal(readImportFile(file, api))).toBe(
      '"wide.csv" was not read. This CSV file has a row of more than 500 columns; Fieldmap reads up to 500. Delete the columns you do not need.',
    );
    // Tabs and semicolons count too: papaparse may guess either.
    const tabs = await picked('tabs.csv', `Name\tCity\n${'x\t'.repeat(600)}x\n`);
    expect(await refusal(readImportFile(tabs, api))).toMatch(
      /^"tabs\.csv" was not read\. .+ more than 500 columns/,
    );
  });

  it('refuses millions of rows before parsing them', async () => {
    const file = await picked('long.csv', `Name\n${'x\n'.repeat(3_000_000)}`);
    expect(await refusal(readImportFile(file, api))).toBe(
      '"long.csv" was not read. This CSV file has more than 100,000 rows; Fieldmap reads up to 100,000. Split it into smaller files.',
    );
  });

  it('reads a file whose quoted cells hold commas and line breaks by the hundred', async () => {
    const notes = `"${'a, '.repeat(800)}\n${'b\n'.repeat(300)}"`;
    const file = await picked('notes.csv', `Name,Notes\nAnn,${notes}\nBob,"x, y"\n`);
    const table = await readImportFile(file, api);
    expect(table.headers).toEqual(['Name', 'Notes']);
    expect(table.rows.map((r) => r[0])).toEqual(['Ann', 'Bob']);
    expect(table.rows[0]![1]).toBe(notes.slice(1, -1));
    // Read in many pieces: a quoted cell cut between two pieces is still one cell.
    const long = `"${'c, '.repeat(600)}\n"`;
    const many = await picked('many.csv', `Name,Notes\n${`Cy,${long}\n`.repeat(12_000)}`);
    expect(many.size).toBeGreaterThan(20 * 1024 * 1024);
    const big = await readImportFile(many, api);
    expect(big.rows).toHaveLength(12_000);
    expect(big.rows[11_999]).toEqual(['Cy', long.slice(1, -1)]);
  });
});
