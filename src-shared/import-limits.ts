// What a file picked for import may hold, CSV and Excel alike, and the CSV check that runs
// before the parse: a CSV from a colleague can be one 500 MB line or millions of columns, and
// papaparse would build all of it on the page's thread before anything could say no.
import { MAX_IMPORT_ROWS } from './csv-customers';

/** The largest CSV file Fieldmap imports (a customer list of 100,000 rows is a few dozen MB). */
export const MAX_CSV_BYTES = 32 * 1024 * 1024;
/** Columns a file may use (a customer list has a few dozen). */
export const MAX_IMPORT_COLUMNS = 500;
/** Data rows a file may have: twice what one import takes, so the checks can say which are over. */
export const MAX_FILE_ROWS = 2 * MAX_IMPORT_ROWS;

const MB = 1024 * 1024;
const fmt = (n: number) => n.toLocaleString('en');

/** Why a CSV of `bytes` is refused before it is read; null when it is not too big. */
export function csvTooLargeMessage(bytes: number): string | null {
  if (bytes <= MAX_CSV_BYTES) return null;
  return (
    `This CSV file is ${Math.round(bytes / MB)} MB; Fieldmap imports files up to ` +
    `${MAX_CSV_BYTES / MB} MB. Save the customers you need as smaller files.`
  );
}

const QUOTE = 34;
const LF = 10;
const CR = 13;
/** Characters read between two pauses of the caller (a few milliseconds). */
const CHARS_PER_SLICE = 1 << 20;

/**
 * Why CSV `text` is refused before it is parsed: more than MAX_IMPORT_COLUMNS fields in a record
 * or more than MAX_FILE_ROWS records (+ the header); null when neither. One pass, quotes
 * respected; every delimiter papaparse may guess (, ; tab |) is counted, so a record's count is
 * never low. A generator: it yields every CHARS_PER_SLICE characters so the page's thread can
 * paint between slices; its return value is the answer.
 */
export function* csvShapeCheck(text: string): Generator<void, string | null> {
  let commas = 0;
  let semicolons = 0;
  let tabs = 0;
  let pipes = 0;
  let records = 0;
  let filled = false;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    if ((i & (CHARS_PER_SLICE - 1)) === CHARS_PER_SLICE - 1) yield;
    const c = text.charCodeAt(i);
    if (quoted) {
      if (c === QUOTE) quoted = false;
      continue;
    }
    if (c === LF || c === CR) {
      if (filled && ++records > MAX_FILE_ROWS + 1) {
        return `This CSV file has more than ${fmt(MAX_FILE_ROWS)} rows; Fieldmap reads up to ${fmt(MAX_FILE_ROWS)}. Split it into smaller files.`;
      }
      filled = false;
      commas = semicolons = tabs = pipes = 0;
      continue;
    }
    filled = true;
    if (c === QUOTE) quoted = true;
    else if (c === 44) commas++;
    else if (c === 59) semicolons++;
    else if (c === 9) tabs++;
    else if (c === 124) pipes++;
    else continue;
    if (Math.max(commas, semicolons, tabs, pipes) >= MAX_IMPORT_COLUMNS) {
      return (
        `This CSV file has a row of more than ${fmt(MAX_IMPORT_COLUMNS)} columns; Fieldmap reads up to ` +
        `${fmt(MAX_IMPORT_COLUMNS)}. Delete the columns you do not need.`
      );
    }
  }
  return null;
}
