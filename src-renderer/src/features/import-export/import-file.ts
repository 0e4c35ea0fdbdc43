// A file the rep picked for import, read into the table the dialog maps: CSV is parsed here
// (papaparse), an .xlsx goes to main as bytes and comes back as the same kind of table, with
// what the reader wants the rep to know (notes) and cells that have no value (cellIssues).
// A CSV is checked where it enters: its size before it is read, its rows and columns as it is
// read, before papaparse builds them (src-shared/import-limits.ts). Every refusal names the file.
// Its encoding (BOM, else valid UTF-8, else Windows-1252) and separator are detected and told
// to the rep in the preview (src-shared/csv-format.ts).
import { toFieldmapError, type FieldmapApi } from '../../../../src-shared';
import type { CellProblem } from '../../../../src-shared/csv-customers';
import {
  bomEncoding,
  describeCsvFormat,
  detectSeparator,
  notTextReason,
  type CsvEncoding,
} from '../../../../src-shared/csv-format';
import { CsvShapeCheck, csvTooLargeMessage } from '../../../../src-shared/import-limits';
import {
  isSpreadsheetName,
  MAX_SPREADSHEET_BYTES,
  refusedFileMessage,
  spreadsheetTooLargeMessage,
  unreadableSpreadsheetMessage,
} from '../../../../src-shared/spreadsheet';
import { parseCsv } from './csv-io';
import { text } from './text';

export interface ImportTable {
  headers: string[];
  rows: string[][];
  /** Parse problems (CSV). */
  problems: string[];
  /** How the file was read (Excel: which sheet, merged cells). */
  notes: string[];
  /** The sheet's row number of each data row (Excel); CSV rows count lines instead. */
  rowNumbers: number[] | null;
  cellIssues: CellProblem[];
  /** How a CSV was written, as the preview says it ("UTF-8, separated by commas"); null for Excel. */
  format: string | null;
  /** Number cells write the decimal mark as a comma (a semicolon CSV). */
  decimalComma: boolean;
}

/** The file's bytes as base64, read by the browser off the page's thread. */
function base64Of(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = String(reader.result);
      resolve(url.slice(url.indexOf(',') + 1));
    };
    reader.onerror = () => reject(new Error(text.file.unreadable));
    reader.readAsDataURL(file);
  });
}

/** The text was not `encoding` (a byte UTF-8 does not allow): read it again as another. */
class WrongEncoding extends Error {}

/**
 * A CSV file's text in `encoding`, read and checked piece by piece as the browser streams it (the
 * page's thread is let go between pieces); the shape check's refusal as soon as a piece shows one.
 */
async function csvText(
  file: Blob,
  encoding: CsvEncoding,
): Promise<{ text: string } | { refusal: string }> {
  const decoder = new TextDecoderStream(encoding, { fatal: true });
  const reader = file.stream().pipeThrough(decoder).getReader();
  const check = new CsvShapeCheck();
  const pieces: string[] = [];
  for (;;) {
    let next: ReadableStreamReadResult<string>;
    try {
      next = await reader.read();
    } catch {
      throw new WrongEncoding();
    }
    const { done, value } = next;
    if (done) return { text: pieces.join('') };
    const refusal = check.feed(value);
    if (refusal) {
      await reader.cancel();
      return { refusal };
    }
    pieces.push(value);
  }
}

/** A CSV's text and how it is written: a BOM's encoding, else UTF-8 if valid, else Windows-1252. */
async function readCsv(
  file: Blob,
): Promise<{ text: string; encoding: CsvEncoding; bom: boolean } | { refusal: string }> {
  const named = bomEncoding(new Uint8Array(await file.slice(0, 3).arrayBuffer()));
  const order: CsvEncoding[] = named ? [named] : ['utf-8', 'windows-1252'];
  for (const encoding of order) {
    try {
      const read = await csvText(file, encoding);
      return 'refusal' in read ? read : { ...read, encoding, bom: named !== null };
    } catch (error) {
      if (!(error instanceof WrongEncoding)) throw error;
    }
  }
  // Only a file whose BOM lies gets here (Windows-1252 decodes every byte).
  return { refusal: text.file.lyingBom(String(named)) };
}

/** Reads a picked .csv or .xlsx; throws with the message the rep should read. */
export async function readImportFile(
  file: File,
  api: Pick<FieldmapApi, 'readSpreadsheet'>,
): Promise<ImportTable> {
  const refuse = (reason: string) => new Error(refusedFileMessage(file.name, reason));
  const unreadable = unreadableSpreadsheetMessage(file.name);
  if (unreadable) throw refuse(unreadable);
  if (isSpreadsheetName(file.name)) {
    if (file.size > MAX_SPREADSHEET_BYTES) throw refuse(spreadsheetTooLargeMessage(file.size));
    const base64 = await base64Of(file);
    // main's refusal (too big, damaged, a zip bomb), which names the file, is what the rep reads.
    const sheet = await api
      .readSpreadsheet({ fileName: file.name, base64 })
      .catch((error: unknown) => Promise.reject(toFieldmapError(error)));
    if (sheet.headers.length === 0) throw refuse(text.file.emptySheet(sheet.sheetName));
    return {
      headers: sheet.headers,
      rows: sheet.rows,
      problems: [],
      notes: sheet.notes,
      rowNumbers: sheet.rowNumbers,
      cellIssues: sheet.cellIssues,
      format: null,
      decimalComma: false,
    };
  }
  const tooLarge = csvTooLargeMessage(file.size);
  if (tooLarge) throw refuse(tooLarge);
  const read = await readCsv(file);
  if ('refusal' in read) throw refuse(read.refusal);
  const notText = notTextReason(read.text);
  if (notText) throw refuse(notText);
  const separator = detectSeparator(read.text);
  const csv = parseCsv(read.text, separator);
  if (csv.headers.length === 0) throw refuse(text.file.noHeader);
  return {
    ...csv,
    notes: [],
    rowNumbers: null,
    cellIssues: [],
    format: describeCsvFormat(read.encoding, read.bom, separator),
    decimalComma: separator === ';',
  };
}
