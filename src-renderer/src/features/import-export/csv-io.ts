// CSV text in and out (papaparse), for import and export of customers. No DOM use: the
// workflow tests run it in Node.
import Papa from 'papaparse';
import { dataRows } from '../../../../src-shared/csv-customers';

export interface ParsedCsv {
  headers: string[];
  rows: string[][];
  /** Parse problems papaparse reported (row numbers count the header as row 1). */
  problems: string[];
}

/**
 * Parses CSV text (a BOM dropped) into headers and data rows, split on `delimiter` (import
 * detects it: src-shared/csv-format.ts) or, without one, on papaparse's guess.
 */
export function parseCsv(text: string, delimiter?: string): ParsedCsv {
  const result = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), {
    skipEmptyLines: 'greedy',
    ...(delimiter ? { delimiter } : {}),
  });
  const table = result.data.map((r) => r.map((c) => String(c)));
  const problems = result.errors
    .filter((e) => e.code !== 'UndetectableDelimiter')
    .map((e) => (e.row !== undefined ? `row ${e.row + 1}: ${e.message}` : e.message));
  return { headers: table[0] ?? [], rows: dataRows(table), problems };
}

/** CSV text of a table (first row = header), every cell quoted when needed, CRLF line ends. */
export function toCsv(table: readonly (readonly string[])[]): string {
  return Papa.unparse(table as string[][], { newline: '\r\n' });
}
