// Files from the real world (issue 28): how a CSV is written, decided from its bytes. The pure
// rules (src-shared/csv-format.ts), then real files on disk through the renderer's import path
// (readImportFile): Windows-1252 from Excel on Windows, semicolons with decimal commas, tabs,
// UTF-16 with a BOM, and files that are no CSV at all, each refused with a reason.
import { openAsBlob } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bomEncoding,
  describeCsvFormat,
  detectSeparator,
  fromDecimalComma,
} from '../../src-shared/csv-format';
import { autoMapColumns, checkRows } from '../../src-shared/csv-customers';
import { MAX_FILE_ROWS } from '../../src-shared/import-limits';
import { readImportFile } from '../../src-renderer/src/features/import-export/import-file';
import { cp1252, utf16leWithBom } from '../support/cp1252';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fieldmap-csv-format-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A picked file: real bytes on disk, read through a File as the page gets one. */
async function picked(name: string, bytes: Buffer): Promise<File> {
  const path = join(dir, name);
  await writeFile(path, bytes);
  return new File([await openAsBlob(path)], name);
}

const api = { readSpreadsheet: () => Promise.reject(new Error('a CSV never goes to main')) };
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => 'read',
    (error: unknown) => (error instanceof Error ? error.message : String(error)),
  );

const NAMES = ['Müller', 'Søndergaard', 'García'];

describe('the pure rules', () => {
  it('reads a byte-order mark, and nothing else, as one', () => {
    expect(bomEncoding(new Uint8Array([0xef, 0xbb, 0xbf, 0x61]))).toBe('utf-8');
    expect(bomEncoding(new Uint8Array([0xff, 0xfe, 0x61, 0]))).toBe('utf-16le');
    expect(bomEncoding(new Uint8Array([0xfe, 0xff, 0, 0x61]))).toBe('utf-16be');
    expect(bomEncoding(new Uint8Array([0x4d, 0xfc]))).toBeNull();
    expect(bomEncoding(new Uint8Array([]))).toBeNull();
  });

  it('finds the separator, decimal commas and quoted separators included', () => {
    expect(detectSeparator('name,city\nA,B\nC,D\n')).toBe(',');
    expect(detectSeparator('name;lat;lng\nMüller;48,137;11,575\nGarcía;40,4;-3,7\n')).toBe(';');
    expect(detectSeparator('name\tcity\n"A, Ltd"\tB\n')).toBe('\t');
    expect(detectSeparator('name,notes\n"x; y; z",B\n"a;b",C\n')).toBe(',');
    expect(detectSeparator('name\nAlpha\n')).toBe(',');
  });

  it('reads decimal commas as numbers, and leaves other text alone', () => {
    expect(fromDecimalComma('48,137')).toBe('48.137');
    expect(fromDecimalComma('-3,7')).toBe('-3.7');
    expect(fromDecimalComma('1.234,50')).toBe('1234.50');
    expect(fromDecimalComma('1.234')).toBe('1.234');
    expect(fromDecimalComma('12,3,4')).toBe('12,3,4');
    expect(fromDecimalComma('about 5,5')).toBe('about 5,5');
  });

  it('says what it found in words', () => {
    expect(describeCsvFormat('windows-1252', false, ';')).toBe(
      'Windows-1252 (Western European), separated by semicolons',
    );
    expect(describeCsvFormat('utf-16le', true, '\t')).toBe(
      'UTF-16 little-endian, separated by tabs',
    );
    expect(describeCsvFormat('utf-8', true, ',')).toBe('UTF-8 with BOM, separated by commas');
  });
});

describe('real files through the import path', () => {
  it('reads a Windows-1252 semicolon file from Excel with its names and decimal commas', async () => {
    const text =
      'Name;Address;Latitude;Longitude;Deal amount\r\n' +
      NAMES.map((n, i) => `${n};Straße ${i + 1}, Köln;50,9${i};6,95;1.234,50`).join('\r\n') +
      '\r\n';
    const bytes = cp1252(text);
    // The file really is single-byte: ü is 0xFC, not UTF-8's C3 BC.
    expect(bytes.includes(0xfc)).toBe(true);
    expect(bytes.includes(Buffer.from('ü'))).toBe(false);
    const table = await readImportFile(await picked('excel.csv', bytes), api);
    expect(table.format).toBe('Windows-1252 (Western European), separated by semicolons');
    expect(table.headers).toEqual(['Name', 'Address', 'Latitude', 'Longitude', 'Deal amount']);
    expect(table.rows.map((r) => r[0])).toEqual(NAMES);
    expect(table.rows[0]![1]).toBe('Straße 1, Köln');
    const checked = checkRows(table.rows, autoMapColumns(table.headers), [], undefined, 'seconds', {
      decimalComma: table.decimalComma,
    });
    expect(checked.map((r) => r.errors)).toEqual([[], [], []]);
    expect(checked[1]!.fields).toMatchObject({
      name: 'Søndergaard',
      latitude: 50.91,
      longitude: 6.95,
      dealAmount: 1234.5,
    });
  });

  it("reads the code page's 0x80-0x9F row: Œ, curly quotes, dashes, € and ™", async () => {
    const names = ['Œuvre “Dupont” – Café', 'Müller’s Bäckerei — Š & ž', 'Acme™ Ÿ • 5 €'];
    const bytes = cp1252('Name;City\r\n' + names.map((n) => `${n};Lyon`).join('\r\n'));
    expect(bytes.includes(0x8c)).toBe(true);
    const table = await readImportFile(await picked('excel.csv', bytes), api);
    expect(table.format).toBe('Windows-1252 (Western European), separated by semicolons');
    expect(table.rows.map((r) => r[0])).toEqual(names);
  });

  it('reads UTF-8 as UTF-8, with or without a BOM, and tabs as tabs', async () => {
    const text = 'name\tcity\r\n' + NAMES.map((n) => `${n}\tZürich, CH`).join('\r\n');
    const plain = await readImportFile(await picked('tabs.csv', Buffer.from(text)), api);
    expect(plain.format).toBe('UTF-8, separated by tabs');
    expect(plain.rows.map((r) => r.join('|'))).toEqual(NAMES.map((n) => `${n}|Zürich, CH`));
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]);
    const withBom = await readImportFile(await picked('bom.csv', bom), api);
    expect(withBom.format).toBe('UTF-8 with BOM, separated by tabs');
    expect(withBom.headers[0]).toBe('name');
  });

  it('reads UTF-16 with a byte-order mark, little- and big-endian', async () => {
    const text = 'name,city\r\n' + NAMES.map((n) => `${n},Łódź`).join('\r\n') + '\r\n';
    const le = await readImportFile(await picked('le.csv', utf16leWithBom(text)), api);
    expect(le.format).toBe('UTF-16 little-endian, separated by commas');
    expect(le.rows).toEqual(NAMES.map((n) => [n, 'Łódź']));
    const swapped = Buffer.from(utf16leWithBom(text));
    swapped.swap16();
    const be = await readImportFile(await picked('be.csv', swapped), api);
    expect(be.format).toBe('UTF-16 big-endian, separated by commas');
    expect(be.rows).toEqual(NAMES.map((n) => [n, 'Łódź']));
  });

  it('refuses a file that is no text CSV, naming the file and what to do', async () => {
    const binary = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0x3b, 0]);
    expect(await refusal(readImportFile(await picked('old.csv', binary), api))).toMatch(
      /^"old\.csv" was not read\. It is not a text CSV file.*save it as "CSV UTF-8"/,
    );
    const noBom = Buffer.from('name,city\r\nMüller,Köln\r\n', 'utf16le');
    expect(await refusal(readImportFile(await picked('nobom.csv', noBom), api))).toMatch(
      /^"nobom\.csv" was not read\. .*UTF-16 without a byte-order mark/,
    );
    const lyingBom = Buffer.from([0xef, 0xbb, 0xbf, 0x6e, 0xfc, 0x0a]);
    expect(await refusal(readImportFile(await picked('lying.csv', lyingBom), api))).toMatch(
      /^"lying\.csv" was not read\. .*utf-8 byte-order mark but is not utf-8 text/,
    );
  });

  it('keeps the row cap when the file is read a second time as Windows-1252', async () => {
    // The header's 0xFC makes it Windows-1252 at once; the rows are over the cap after it.
    const bytes = Buffer.concat([
      cp1252('Name;Straße\n'),
      Buffer.from('a;b\n'.repeat(MAX_FILE_ROWS + 2)),
    ]);
    expect(await refusal(readImportFile(await picked('many.csv', bytes), api))).toMatch(
      /^"many\.csv" was not read\. This CSV file has more than 100,000 rows/,
    );
  });
});
