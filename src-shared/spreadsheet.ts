// Excel (.xlsx) import, the part both sides know: the size cap and its message (the renderer
// checks it before sending, main again on what it gets), the request that carries the file to
// main, and the table main reads out of the sheet. That table has the shape of a parsed CSV, so
// everything after it (mapping, preview, checks, duplicates, the import job) is the CSV path.
import * as v from 'valibot';

/** The largest spreadsheet Fieldmap imports. */
export const MAX_SPREADSHEET_BYTES = 20 * 1024 * 1024;

const MB = 1024 * 1024;

/** What a rep reads when the file is over the cap. */
export function spreadsheetTooLargeMessage(bytes: number): string {
  const cap = MAX_SPREADSHEET_BYTES / MB;
  const size = Math.round(bytes / MB);
  return (
    `This spreadsheet is ${size > cap ? `${size} MB` : `over ${cap} MB`}; Fieldmap imports ` +
    `files up to ${cap} MB. Save the customers you need as a smaller file or CSV.`
  );
}

/** A file name as a message quotes it: one line, not too long to read. */
function shownFileName(name: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what is dropped
  const line = name.replace(/[\u0000-\u001f\u007f]/g, ' ').trim();
  return line.length > 80 ? `${line.slice(0, 77)}...` : line;
}

/** What a rep reads when a file they picked for import is refused: the file, then why. */
export function refusedFileMessage(fileName: string, reason: string): string {
  return `"${shownFileName(fileName)}" was not read. ${reason}`;
}

/** True for a file name the import reads as an Excel workbook. */
export function isSpreadsheetName(name: string): boolean {
  return /\.xlsx$/i.test(name.trim());
}

/**
 * What a rep reads for a spreadsheet format the import does not read (old .xls, macro or binary
 * workbooks, OpenDocument, Numbers); null for any other file name.
 */
export function unreadableSpreadsheetMessage(name: string): string | null {
  const ext = /\.(xls|xlsm|xlsb|xltx|ods|numbers)$/i.exec(name.trim())?.[1];
  return ext
    ? `Fieldmap reads Excel workbooks saved as .xlsx, and CSV files, not .${ext.toLowerCase()}. ` +
        'Open the file in your spreadsheet app and save it as .xlsx (Excel Workbook) or CSV.'
    : null;
}

/** Base64 of MAX_SPREADSHEET_BYTES: the request's own cap, so main never holds more. */
const MAX_BASE64_CHARS = Math.ceil(MAX_SPREADSHEET_BYTES / 3) * 4;

/** A spreadsheet the rep picked, handed to main to read (the renderer never parses it). */
export const ReadSpreadsheetRequestSchema = v.strictObject({
  fileName: v.pipe(v.string(), v.maxLength(500)),
  /** The file's bytes, base64 (crosses Electron's IPC and the browser runner's binding alike). */
  base64: v.pipe(
    v.string(),
    v.maxLength(MAX_BASE64_CHARS, `The file is over ${MAX_SPREADSHEET_BYTES / MB} MB`),
  ),
});
export type ReadSpreadsheetRequest = v.InferOutput<typeof ReadSpreadsheetRequestSchema>;

/** A cell the reader could not give a value for (a formula without a saved result, #DIV/0!...). */
export const CellIssueSchema = v.object({
  /** Index among the data rows (as in `rows`). */
  row: v.number(),
  col: v.number(),
  /** Why, in the rep's words: it becomes the row's error when the column is mapped. */
  message: v.string(),
});
export type CellIssue = v.InferOutput<typeof CellIssueSchema>;

/** The first sheet as a table: the same headers and data rows a CSV file gives. */
export const SheetTableSchema = v.object({
  sheetName: v.string(),
  headers: v.array(v.string()),
  rows: v.array(v.array(v.string())),
  /** The sheet's row number (1-based) of each data row, for "Row 12: ..." messages. */
  rowNumbers: v.array(v.number()),
  /** What the rep should know about how the sheet was read (which sheet, merged cells). */
  notes: v.array(v.string()),
  cellIssues: v.array(CellIssueSchema),
});
export type SheetTable = v.InferOutput<typeof SheetTableSchema>;
