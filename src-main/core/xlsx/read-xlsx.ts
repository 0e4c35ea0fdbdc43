// Reads the first visible sheet of an .xlsx workbook into the table a CSV file gives (headers,
// data rows of text cells), so the import's mapping, preview, checks, duplicate detection and
// job are the CSV ones. Runs in a worker thread of main (xlsx-worker.ts), never in the renderer.
//
// Why our own reader on Node's zlib rather than a library: the npm `xlsx` (SheetJS) build is
// stale (0.18.5) with prototype-pollution and ReDoS advisories, its fixed builds are off the
// registry; `exceljs` is large and pulls ~10 dependencies (archiver, jszip, unzipper, saxes...),
// last released 2024; `read-excel-file` 9 now pulls four (fflate, saxen, unzipper-esm,
// worker-f) and hides what the import must see: a formula without a saved value, merged ranges,
// a cell's number format. An import needs five small parts (workbook, its relationships, shared
// strings, styles, one sheet): a strict zip directory reader with a hard unpack cap (zip.ts), a
// strict XML reader that refuses any DTD (xml.ts: no XXE, no entity expansion) and the cell rules
// below fit in a few hundred lines with no dependency at all. Tests build real workbooks with
// fflate (a devDependency).
//
// Rules, each told to the rep where it matters (notes) or as the row's error (cellIssues):
// - files over MAX_SPREADSHEET_BYTES are refused with their size; parts unpacking past 200 MB
//   (a zip bomb) are refused; a damaged file names the part and what is wrong; a sheet over a
//   cap of limits.ts (cells, characters, rows, columns, merges) is refused before it is built;
// - the first sheet shown in Excel (hidden ones skipped) is read, and the note says which;
// - a formula gives its saved (cached) value; with none, the cell is an issue of its row;
// - a merged range gives every one of its cells the top-left value, and the note lists it;
// - date-formatted numbers become ISO dates; "00000"-formatted numbers keep leading zeros;
//   text cells are taken as text (a zip code typed as text stays "02134");
// - text is what Excel shows: its `_xHHHH_` escapes decoded (`_x000D_` is a line break's CR);
// - the header is the first non-empty row and empty rows are skipped, as in a CSV import.
import {
  MAX_SPREADSHEET_BYTES,
  spreadsheetTooLargeMessage,
  type CellIssue,
  type SheetTable,
} from '../../../src-shared/spreadsheet';
import {
  MAX_CELLS,
  MAX_COLUMNS,
  MAX_SHEET_ROWS,
  SheetBudget,
  tooManyCells,
  tooManyColumns,
  tooManyRows,
} from './limits';
import { parseRef, readSheetCells, type SheetCell } from './sheet-cells';
import {
  readRelationships,
  readSharedStrings,
  readStyles,
  readWorkbook,
  type Relationship,
} from './workbook-parts';
import { XmlError } from './xml';
import { NOT_XLSX, XlsxError, ZipParts } from './zip';

export { XlsxError } from './zip';

/** Merged ranges named one by one in the notes. */
const SHOWN_MERGES = 5;

const damaged = (part: string, what: string) =>
  new XlsxError(
    `The spreadsheet is damaged (${part}: ${what}). Open it in Excel and save it again, or save it as CSV.`,
  );

/** What the small parts (relationships, workbook, styles) may unpack to, each. */
const SMALL_PART_BYTES = 16 * 1024 * 1024;

/** Reads one part with `read`, turning XML errors into the rep's message. */
async function part<T>(
  zip: ZipParts,
  path: string,
  read: (xml: string) => T | Promise<T>,
  maxBytes?: number,
): Promise<T | null> {
  const xml = zip.text(path, maxBytes);
  if (xml === null) return null;
  try {
    return await read(xml);
  } catch (error) {
    if (error instanceof XmlError) throw damaged(path, error.message);
    throw error;
  }
}

/** A part the workbook cannot do without: missing, the file is no workbook. */
function required<T>(value: T | null): T {
  if (value === null) throw new XlsxError(NOT_XLSX);
  return value;
}

/** Lets main's event loop run between slices of a large part. */
const pause = () => new Promise<void>((resolve) => setImmediate(resolve));

export async function readXlsx(bytes: Uint8Array): Promise<SheetTable> {
  if (bytes.length > MAX_SPREADSHEET_BYTES) {
    throw new XlsxError(spreadsheetTooLargeMessage(bytes.length));
  }
  const zip = new ZipParts(bytes);
  const rootRels = await part(
    zip,
    '_rels/.rels',
    (xml) => readRelationships(xml, ''),
    SMALL_PART_BYTES,
  );
  const workbookPath =
    rootRels?.find((r) => r.type === 'officeDocument')?.path ?? 'xl/workbook.xml';
  const baseDir = workbookPath.split('/').slice(0, -1).join('/');
  const workbook = required(await part(zip, workbookPath, readWorkbook, SMALL_PART_BYTES));
  const relsPath = `${baseDir ? `${baseDir}/` : ''}_rels/${workbookPath.split('/').pop()}.rels`;
  const rels: Relationship[] =
    (await part(zip, relsPath, (xml) => readRelationships(xml, baseDir), SMALL_PART_BYTES)) ?? [];

  const sheet = workbook.sheets.find((s) => !s.hidden);
  if (!sheet) throw new XlsxError('This spreadsheet has no sheet to read.');
  const sheetPath = rels.find((r) => r.id === sheet.relId)?.path;
  if (!sheetPath || !zip.has(sheetPath)) throw damaged(workbookPath, `no part for "${sheet.name}"`);
  const pathOf = (type: string, fallback: string) =>
    rels.find((r) => r.type === type)?.path ?? fallback;
  const budget = new SheetBudget();
  const shared = await part(zip, pathOf('sharedStrings', `${baseDir}/sharedStrings.xml`), (xml) =>
    readSharedStrings(xml, pause),
  );
  const styles = await part(
    zip,
    pathOf('styles', `${baseDir}/styles.xml`),
    readStyles,
    SMALL_PART_BYTES,
  );
  const cells = required(
    await part(zip, sheetPath, (xml) =>
      readSheetCells(
        xml,
        { shared: shared ?? [], styles: styles ?? [], date1904: workbook.date1904 },
        pause,
        budget,
      ),
    ),
  );

  const notes = [sheetNote(sheet.name, workbook.sheets)];
  notes.push(...fillMerges(cells.rows, cells.merges, budget));
  return { sheetName: sheet.name, ...(await toTable(cells.rows)), notes };
}

/** Excel's names have at most 31 characters; a crafted one is cut, not echoed whole. */
const shown = (name: string) => (name.length > 40 ? `${name.slice(0, 37)}...` : name);
/** Sheets named one by one in the note. */
const SHOWN_SHEETS = 20;

function sheetNote(name: string, sheets: readonly { name: string; hidden: boolean }[]): string {
  if (sheets.length === 1) return `Read the sheet "${shown(name)}".`;
  const list = sheets
    .slice(0, SHOWN_SHEETS)
    .map((s) => `"${shown(s.name)}"${s.hidden ? ' (hidden)' : ''}`)
    .join(', ');
  const more = sheets.length > SHOWN_SHEETS ? ` and ${sheets.length - SHOWN_SHEETS} more` : '';
  return (
    `Read the sheet "${shown(name)}" (the first one Excel shows) of ${sheets.length} sheets: ${list}${more}. ` +
    'To import another sheet, move it to the front in Excel, or save it as its own file.'
  );
}

/**
 * Gives each merged range's cells the top-left cell; the notes say which ranges. Each range's
 * cells are taken from `budget` before it is filled, so a range over the whole sheet is refused
 * instead of walked.
 */
function fillMerges(
  rows: Map<number, Map<number, SheetCell>>,
  merges: readonly string[],
  budget: SheetBudget,
): string[] {
  if (merges.length === 0) return [];
  let lastRow = 0;
  let lastCol = 0;
  for (const [r, row] of rows) {
    lastRow = Math.max(lastRow, r);
    for (const c of row.keys()) lastCol = Math.max(lastCol, c);
  }
  const notes: string[] = [];
  for (const ref of merges) {
    const [a, b, ...rest] = ref.split(':');
    if (rest.length > 0) continue;
    const from = a ? parseRef(a) : null;
    const to = b ? parseRef(b) : null;
    if (!from || !to) continue;
    const top = rows.get(from.row)?.get(from.col);
    // A range reaching past the used cells (whole columns) is filled only where rows are.
    const toRow = Math.min(to.row, lastRow);
    const toCol = Math.min(to.col, lastCol);
    const area = Math.max(0, toRow - from.row + 1) * Math.max(0, toCol - from.col + 1);
    if (area > MAX_CELLS) throw tooManyCells();
    budget.take(area, top?.text.length ?? 0);
    for (let r = from.row; r <= toRow; r++) {
      for (let c = from.col; c <= toCol; c++) {
        if (r === from.row && c === from.col) continue;
        let row = rows.get(r);
        if (!row) rows.set(r, (row = new Map()));
        if (top) row.set(c, top);
        else row.delete(c);
      }
    }
    if (notes.length < SHOWN_MERGES) {
      notes.push(
        `Merged cells ${a!.toUpperCase()}:${b!.toUpperCase()}: the value of ${a!.toUpperCase()} was used for every cell of the range.`,
      );
    }
  }
  const more = merges.length - notes.length;
  if (more > 0) notes.push(`${more} more merged ranges were read the same way.`);
  return notes;
}

/** Rows built between two pauses. */
const ROWS_PER_SLICE = 5_000;

/** Dense rows: the first non-empty row is the header, empty rows are skipped. */
async function toTable(
  rows: Map<number, Map<number, SheetCell>>,
): Promise<Pick<SheetTable, 'headers' | 'rows' | 'rowNumbers' | 'cellIssues'>> {
  const numbers = [...rows.keys()].filter((r) => {
    for (const cell of rows.get(r)!.values())
      if (cell.text.trim() !== '' || cell.issue) return true;
    return false;
  });
  numbers.sort((x, y) => x - y);
  let width = 0;
  for (const r of numbers) for (const c of rows.get(r)!.keys()) width = Math.max(width, c + 1);
  if (width > MAX_COLUMNS) throw tooManyColumns(width);
  if (numbers.length - 1 > MAX_SHEET_ROWS) throw tooManyRows(numbers.length - 1);
  // The dense table holds every empty cell too.
  if (numbers.length * width > MAX_CELLS) throw tooManyCells();
  const cellIssues: CellIssue[] = [];
  const dense = (r: number, index: number) => {
    const out = new Array<string>(width).fill('');
    for (const [c, cell] of rows.get(r)!) {
      out[c] = cell.text;
      if (cell.issue && index >= 0) cellIssues.push({ row: index, col: c, message: cell.issue });
    }
    return out;
  };
  const [head, ...data] = numbers;
  const out: string[][] = [];
  for (let i = 0; i < data.length; i++) {
    out.push(dense(data[i]!, i));
    if (i % ROWS_PER_SLICE === ROWS_PER_SLICE - 1) await pause();
  }
  return {
    headers: head === undefined ? [] : dense(head, -1),
    rows: out,
    rowNumbers: data,
    cellIssues,
  };
}
