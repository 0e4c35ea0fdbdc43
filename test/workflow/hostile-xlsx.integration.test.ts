// Hostile spreadsheets (issue 30): crafted .xlsx files, each aimed at work the reader would do
// without bound, go through main's real path for a picked file ('import:read-spreadsheet':
// readSpreadsheet, the reader in a worker thread) and come back as a refusal naming the file and
// the reason; a parser that throws, loops or runs out of its heap costs a refusal too, and main
// keeps answering meanwhile. The files are written to disk and read back, as the dialog does.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSpreadsheet } from '../../src-main/app/spreadsheet-import';
import { FakeClock } from '../support/clock';
import { hostileWorkbooks } from '../support/hostile-xlsx';
import { buildXlsx } from '../support/xlsx-file';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fieldmap-hostile-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The picked file's request, as the renderer sends it: the bytes of a real file, base64. */
async function request(name: string, bytes: Uint8Array) {
  const file = join(dir, name);
  await writeFile(file, bytes);
  return { fileName: name, base64: (await readFile(file)).toString('base64') };
}

const good = () =>
  buildXlsx({
    sheets: [
      {
        name: 'Customers',
        rows: [
          ['Name', 'City'],
          ['Ann', 'Lyon'],
        ],
      },
    ],
  });

const worker = (name: string) => join(import.meta.dirname, '../support/parse-workers', name);

/** The message of what `promise` rejected with. */
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => 'read',
    (error: unknown) => (error instanceof Error ? error.message : String(error)),
  );

describe('hostile spreadsheets', () => {
  for (const hostile of hostileWorkbooks()) {
    it(`refuses ${hostile.name}, naming it and why; the next file reads`, async () => {
      const message = await refusal(readSpreadsheet(await request(hostile.name, hostile.bytes())));
      const prefix = `"${hostile.name}" was not read. `;
      expect(message.startsWith(prefix), message.slice(0, 300)).toBe(true);
      expect(message.slice(prefix.length)).toMatch(hostile.reason);
      // Nothing of the refused file stays behind: the next pick reads as ever.
      const table = await readSpreadsheet(await request('customers.xlsx', good()));
      expect(table.rows).toEqual([['Ann', 'Lyon']]);
    });
  }

  it('a crafted merge reference or sheet name is not echoed into the notes', async () => {
    const bytes = buildXlsx({
      sheets: [
        {
          name: `C${'n'.repeat(30)}`,
          rows: [['Name'], ['Ann'], [null]],
          merges: [`A2:A3:${'Z'.repeat(500_000)}`],
        },
        { name: 'N'.repeat(500_000), rows: [] },
      ],
    });
    const table = await readSpreadsheet(await request('customers.xlsx', bytes));
    expect(table.rows).toEqual([['Ann']]);
    expect(table.notes.join(' ').length).toBeLessThan(1_000);
  });

  it('a reader that throws is a refusal of the file, not an error of main', async () => {
    const message = await refusal(
      readSpreadsheet(await request('list.xlsx', good()), { entry: worker('throws.ts') }),
    );
    expect(message).toBe(
      '"list.xlsx" was not read. Fieldmap could not read it. Open it in Excel and save it again, or save it as CSV.',
    );
  });

  it('a reader that never ends is refused at its deadline while main keeps answering', async () => {
    // The deadline runs on a clock the test moves, so "while it loops" holds however slow.
    const clock = new FakeClock();
    let settled = false;
    const reading = refusal(
      readSpreadsheet(await request('list.xlsx', good()), {
        entry: worker('loops.ts'),
        limits: { heapMb: 64, deadlineMs: 5_000 },
        clock,
      }),
    ).finally(() => (settled = true));
    // Main reads another file while the loop runs in its worker.
    const table = await readSpreadsheet(await request('customers.xlsx', good()));
    expect(table.rows).toEqual([['Ann', 'Lyon']]);
    expect(settled).toBe(false);
    await clock.advance(4_999);
    expect(settled).toBe(false);
    await clock.advance(1);
    expect(await reading).toBe(
      '"list.xlsx" was not read. Reading it took longer than 5 seconds. Save the customers you need as a smaller file or CSV.',
    );
  });

  it('a reader that runs out of its heap is refused; main is unharmed', async () => {
    const message = await refusal(
      readSpreadsheet(await request('list.xlsx', good()), {
        entry: worker('hoards.ts'),
        limits: { heapMb: 32, deadlineMs: 120_000 },
      }),
    );
    expect(message).toBe(
      '"list.xlsx" was not read. Reading it needed more memory than Fieldmap allows. Save the customers you need as a smaller file or CSV.',
    );
    const table = await readSpreadsheet(await request('customers.xlsx', good()));
    expect(table.rows).toEqual([['Ann', 'Lyon']]);
  });
});
