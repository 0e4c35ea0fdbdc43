// Crafted .xlsx files, each made by reading the reader's code (src-main/core/xlsx/) for work it
// would do without bound: a merged range over the whole sheet, one huge shared string named by
// thousands of cells, zip bombs in each part, thousands of zip entries, deep nesting, huge
// attribute values, huge counts. Each comes with the reason its refusal must name. Used by the
// tests (test/workflow/hostile-xlsx.test.ts) and the bench (scripts/bench/hostile.ts).
import { deflateRawSync } from 'node:zlib';
import { strToU8, Zip, ZipDeflate, ZipPassThrough, zipSync, type Zippable } from 'fflate';
import { xlsxParts } from './xlsx-file';

export interface HostileXlsx {
  /** The file name the rep picked (also the bench's case name). */
  name: string;
  /** Builds the file (some take a second: made only when their case runs). */
  bytes: () => Uint8Array;
  /** What the refusal must say (after the file's name). */
  reason: RegExp;
}

const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const sheetXml = (body: string, after = '') =>
  `<worksheet xmlns="${NS}"><sheetData>${body}</sheetData>${after}</worksheet>`;
const inline = (ref: string, text: string) =>
  `<c r="${ref}" t="inlineStr"><is><t>${text}</t></is></c>`;

/** A one-sheet workbook with `replace` parts put in as they are (zipped by fflate). */
function workbook(replace: Zippable): Uint8Array {
  return zipSync({ ...xlsxParts({ sheets: [{ name: 'S', rows: [] }] }), ...replace }, { level: 9 });
}

/**
 * A one-sheet workbook whose part `name` is `body` deflated natively (fast even for hundreds of
 * MB of one byte), so a bomb is built in well under a second.
 */
function workbookWithDeflated(name: string, body: Buffer): Uint8Array {
  const deflated = deflateRawSync(body, { level: 1 });
  const chunks: Uint8Array[] = [];
  const zip = new Zip((err, chunk) => {
    if (err) throw err;
    chunks.push(chunk);
  });
  const parts = xlsxParts({ sheets: [{ name: 'S', rows: [] }] });
  if (!(name in parts)) parts[name] = new Uint8Array();
  for (const [path, data] of Object.entries(parts)) {
    const entry = path === name ? new ZipPassThrough(path) : new ZipDeflate(path);
    if (entry instanceof ZipPassThrough) entry.compression = 8;
    zip.add(entry);
    entry.push(path === name ? deflated : (data as Uint8Array), true);
  }
  zip.end();
  return new Uint8Array(Buffer.concat(chunks.map((c) => Buffer.from(c))));
}

/** `size` bytes of spaces between `head` and `tail`: well-formed XML that only unpacks big. */
function padded(head: string, tail: string, size: number): Buffer {
  const body = Buffer.alloc(size, 0x20);
  body.write(head, 0);
  body.write(tail, size - Buffer.byteLength(tail));
  return body;
}

const MB = 1024 * 1024;

/** Every crafted workbook, smallest work first. */
export function hostileWorkbooks(): HostileXlsx[] {
  return [
    {
      // The issue's 933-byte file: the last cell of the sheet has a value, so filling the merge
      // would walk 17 billion cells.
      name: 'merge-whole-sheet.xlsx',
      bytes: () =>
        workbook({
          'xl/worksheets/sheet1.xml': strToU8(
            sheetXml(
              `<row r="1">${inline('A1', 'Name')}</row><row r="1048576">${inline('XFD1048576', 'x')}</row>`,
              '<mergeCells count="1"><mergeCell ref="A1:XFD1048576"/></mergeCells>',
            ),
          ),
        }),
      reason: /^This sheet uses more than 500 columns; Fieldmap reads up to 500\./,
    },
    {
      // The same merge with only a space in the last cell: no column holds a value past 500,
      // so only the merge's own size can refuse it.
      name: 'merge-whole-sheet-blank.xlsx',
      bytes: () =>
        workbook({
          'xl/worksheets/sheet1.xml': strToU8(
            sheetXml(
              `<row r="1">${inline('A1', 'Name')}</row><row r="1048576">${inline('XFD1048576', ' ')}</row>`,
              '<mergeCells count="1"><mergeCell ref="A1:XFD1048576"/></mergeCells>',
            ),
          ),
        }),
      reason: /^This sheet has more than 5,000,000 cells, more than Fieldmap reads\./,
    },
    {
      // The issue's 108 KB file: 20,000 cells name one 4 MiB shared string (8×10¹⁰ characters).
      name: 'shared-string-amplifier.xlsx',
      bytes: () =>
        workbook({
          'xl/sharedStrings.xml': strToU8(
            `<sst xmlns="${NS}"><si><t>${'A'.repeat(4 * MB)}</t></si></sst>`,
          ),
          'xl/worksheets/sheet1.xml': strToU8(
            sheetXml(
              Array.from({ length: 20_000 }, () => `<row><c t="s"><v>0</v></c></row>`).join(''),
            ),
          ),
        }),
      reason: /^The cells of this sheet hold more than 32 million characters/,
    },
    {
      name: 'merges-by-the-thousand.xlsx',
      bytes: () =>
        workbook({
          'xl/worksheets/sheet1.xml': strToU8(
            sheetXml(
              `<row r="1">${inline('A1', 'Name')}</row>`,
              `<mergeCells>${Array.from({ length: 20_000 }, (_, i) => `<mergeCell ref="A${i + 2}:B${i + 2}"/>`).join('')}</mergeCells>`,
            ),
          ),
        }),
      reason: /^This spreadsheet has more than 10,000 merged ranges/,
    },
    {
      // One value in the last column Fieldmap reads and 12,000 rows: a dense table of 6M cells.
      name: 'wide-and-long.xlsx',
      bytes: () =>
        workbook({
          'xl/worksheets/sheet1.xml': strToU8(
            sheetXml(
              `<row r="1">${inline('A1', 'Name')}${inline('SF1', 'Far')}</row>` +
                Array.from(
                  { length: 12_000 },
                  (_, i) => `<row>${inline(`A${i + 2}`, 'n')}</row>`,
                ).join(''),
            ),
          ),
        }),
      reason: /^This sheet has more than 5,000,000 cells/,
    },
    {
      name: 'rows-past-the-cap.xlsx',
      bytes: () =>
        workbook({
          'xl/worksheets/sheet1.xml': strToU8(
            sheetXml(Array.from({ length: 100_005 }, () => `<row><c><v>1</v></c></row>`).join('')),
          ),
        }),
      reason: /^This sheet has more than 100,000 rows; Fieldmap reads up to 100,000\./,
    },
    {
      name: 'thousands-of-entries.xlsx',
      bytes: () =>
        workbook(
          Object.fromEntries(
            Array.from({ length: 12_000 }, (_, i) => [`xl/media/p${i}.bin`, new Uint8Array(1)]),
          ),
        ),
      reason: /^This spreadsheet has 12,\d{3} parts; Fieldmap reads workbooks of up to 10,000\./,
    },
    {
      name: 'deep-nesting.xlsx',
      bytes: () =>
        workbook({
          'xl/worksheets/sheet1.xml': strToU8(
            sheetXml(`${'<x>'.repeat(200_000)}${'</x>'.repeat(200_000)}`),
          ),
        }),
      reason: /xl\/worksheets\/sheet1\.xml: elements nested more than 256 deep/,
    },
    {
      name: 'huge-attribute.xlsx',
      bytes: () =>
        workbook({
          'xl/worksheets/sheet1.xml': strToU8(
            sheetXml(`<row><c r="A1" s="${'9'.repeat(8 * MB)}"><v>1</v></c></row>`),
          ),
        }),
      reason:
        /xl\/worksheets\/sheet1\.xml: the attribute s of <c> has more than 1,048,576 characters/,
    },
    {
      name: 'huge-sheet-name.xlsx',
      bytes: () =>
        workbook({
          'xl/workbook.xml': strToU8(
            `<workbook xmlns="${NS}" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>` +
              `<sheet name="${'N'.repeat(2 * MB)}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
          ),
        }),
      reason: /xl\/workbook\.xml: the attribute name of <sheet> has more than 1,048,576 characters/,
    },
    {
      name: 'shared-strings-by-the-million.xlsx',
      bytes: () =>
        workbookWithDeflated(
          'xl/sharedStrings.xml',
          Buffer.from(`<sst xmlns="${NS}">${'<si/>'.repeat(2_000_001)}</sst>`),
        ),
      reason: /^This spreadsheet has more than 2,000,000 shared texts/,
    },
    {
      name: 'styles-by-the-thousand.xlsx',
      bytes: () =>
        workbook({
          'xl/styles.xml': strToU8(
            `<styleSheet xmlns="${NS}"><cellXfs>${'<xf numFmtId="0"/>'.repeat(70_000)}</cellXfs></styleSheet>`,
          ),
        }),
      reason: /^This spreadsheet has more than 64,000 cell styles/,
    },
    {
      name: 'styles-bomb.xlsx',
      bytes: () =>
        workbookWithDeflated(
          'xl/styles.xml',
          padded(`<styleSheet xmlns="${NS}">`, '</styleSheet>', 40 * MB),
        ),
      reason: /^This spreadsheet unpacks to more than 16 MB \(xl\/styles\.xml\)/,
    },
    {
      name: 'shared-strings-bomb.xlsx',
      bytes: () =>
        workbookWithDeflated(
          'xl/sharedStrings.xml',
          padded(`<sst xmlns="${NS}">`, '</sst>', 216 * MB),
        ),
      reason: /^This spreadsheet unpacks to more than 200 MB \(xl\/sharedStrings\.xml\)/,
    },
    {
      name: 'sheet-bomb.xlsx',
      bytes: () =>
        workbookWithDeflated(
          'xl/worksheets/sheet1.xml',
          padded(`<worksheet xmlns="${NS}"><sheetData>`, '</sheetData></worksheet>', 216 * MB),
        ),
      reason: /^This spreadsheet unpacks to more than 200 MB \(xl\/worksheets\/sheet1\.xml\)/,
    },
  ];
}
