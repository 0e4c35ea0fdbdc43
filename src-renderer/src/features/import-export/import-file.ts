// A file the rep picked for import, read into the table the dialog maps: CSV is parsed here
// (papaparse), an .xlsx goes to main as bytes and comes back as the same kind of table, with
// what the reader wants the rep to know (notes) and cells that have no value (cellIssues).
import { toFieldmapError, type FieldmapApi } from '../../../../src-shared';
import type { CellProblem } from '../../../../src-shared/csv-customers';
import {
  isSpreadsheetName,
  MAX_SPREADSHEET_BYTES,
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

/** Reads a picked .csv or .xlsx; throws with the message the rep should read. */
export async function readImportFile(
  file: File,
  api: Pick<FieldmapApi, 'readSpreadsheet'>,
): Promise<ImportTable> {
  const unreadable = unreadableSpreadsheetMessage(file.name);
  if (unreadable) throw new Error(unreadable);
  if (isSpreadsheetName(file.name)) {
    if (file.size > MAX_SPREADSHEET_BYTES) throw new Error(spreadsheetTooLargeMessage(file.size));
    const base64 = await base64Of(file);
    // main's refusal (too big, damaged, a zip bomb) is the message the rep reads.
    const sheet = await api
      .readSpreadsheet({ fileName: file.name, base64 })
      .catch((error: unknown) => Promise.reject(toFieldmapError(error)));
    if (sheet.headers.length === 0) throw new Error(`The sheet "${sheet.sheetName}" is empty.`);
    return {
      headers: sheet.headers,
      rows: sheet.rows,
      problems: [],
      notes: sheet.notes,
      rowNumbers: sheet.rowNumbers,
      cellIssues: sheet.cellIssues,
    };
  }
  const csv = parseCsv(await file.text());
  if (csv.headers.length === 0) throw new Error('The file has no header row.');
  return { ...csv, notes: [], rowNumbers: null, cellIssues: [] };
}
