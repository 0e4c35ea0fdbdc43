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

/**
 * The shape check of a CSV text fed in pieces as it is read: more than MAX_IMPORT_COLUMNS fields
 * in a record or more than MAX_FILE_ROWS records (+ the header) refuses it before it is parsed,
 * as soon as the piece that shows it arrives. Quotes are respected; every delimiter papaparse
 * may guess (, ; tab |) is counted, so a record's count is never low.
 */
export class CsvShapeCheck {
  #commas = 0;
  #semicolons = 0;
  #tabs = 0;
  #pipes = 0;
  #records = 0;
  #filled = false;
  #quoted = false;

  /** The next piece of the text; answers why the file is refused, or null so far. */
  feed(text: string): string | null {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (this.#quoted) {
        if (c === QUOTE) this.#quoted = false;
        continue;
      }
      if (c === LF || c === CR) {
        if (this.#filled && ++this.#records > MAX_FILE_ROWS + 1) {
          return `This CSV file has more than ${fmt(MAX_FILE_ROWS)} rows; Fieldmap reads up to ${fmt(MAX_FILE_ROWS)}. Split it into smaller files.`;
        }
        this.#filled = false;
        this.#commas = this.#semicolons = this.#tabs = this.#pipes = 0;
        continue;
      }
      this.#filled = true;
      if (c === QUOTE) this.#quoted = true;
      else if (c === 44) this.#commas++;
      else if (c === 59) this.#semicolons++;
      else if (c === 9) this.#tabs++;
      else if (c === 124) this.#pipes++;
      else continue;
      if (Math.max(this.#commas, this.#semicolons, this.#tabs, this.#pipes) >= MAX_IMPORT_COLUMNS) {
        return (
          `This CSV file has a row of more than ${fmt(MAX_IMPORT_COLUMNS)} columns; Fieldmap reads up to ` +
          `${fmt(MAX_IMPORT_COLUMNS)}. Delete the columns you do not need.`
        );
      }
    }
    return null;
  }
}
