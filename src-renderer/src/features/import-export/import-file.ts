// A file the rep picked for import, read into the table the dialog maps: CSV is parsed here
// (papaparse), an .xlsx goes to main as bytes and comes back as the same kind of table, with
// what the reader wants the rep to know (notes) and cells that have no value (cellIssues).
// A CSV is checked where it enters: its size before it is read, its rows and columns as it is
// read, before papaparse builds them (src-shared/import-limits.ts). Every refusal names the file.
import { toFieldmapError, type FieldmapApi } from '../../../../src-shared';
import type { CellProblem } from '../../../../src-shared/csv-customers';
import { CsvShapeCheck, csvTooLargeMessage } from '../../../../src-shared/import-limits';
import {
  isSpreadsheetName,
  MAX_SPREADSHEET_BYTES,
  refusedFileMessage,
  spreadsheetTooLargeMessage,
  unreadableSpreadsheetMessage,
} from '../../../../src-shared/spreadsheet';
import { parseCsv } from './csv-io';

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
}

/** The file's bytes as base64, read by the browser off the page's thread. */
function base64Of(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = String(reader.result);
      resolve(url.slice(url.indexOf(',') + 1));
    };
    reader.onerror = () => reject(new Error('The file could not be read.'));
    reader.readAsDataURL(file);
  });
}

/**
 * A CSV file's text, read and checked piece by piece as the browser streams it (the page's thread
 * is let go between pieces); the shape check's refusal as soon as a piece shows one.
 */
async function csvText(file: Blob): Promise<{ text: string } | { refusal: string }> {
  const reader = file.stream().pipeThrough(new TextDecoderStream()).getReader();
  const check = new CsvShapeCheck();
  const pieces: string[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { text: pieces.join('') };
    const refusal = check.feed(value);
    if (refusal) {
      await reader.cancel();
      return { refusal };
    }
    pieces.push(value);
  }
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
    if (sheet.headers.length === 0) throw refuse(`The sheet "${sheet.sheetName}" is empty.`);
    return {
      headers: sheet.headers,
      rows: sheet.rows,
      problems: [],
      notes: sheet.notes,
      rowNumbers: sheet.rowNumbers,
      cellIssues: sheet.cellIssues,
    };
  }
  const tooLarge = csvTooLargeMessage(file.size);
  if (tooLarge) throw refuse(tooLarge);
  const read = await csvText(file);
  if ('refusal' in read) throw refuse(read.refusal);
  const csv = parseCsv(read.text);
  if (csv.headers.length === 0) throw refuse('The file has no header row.');
  return { ...csv, notes: [], rowNumbers: null, cellIssues: [] };
}
