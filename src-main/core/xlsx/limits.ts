// What one workbook may hold, checked before the work it would cost rather than after: a file
// from a colleague can be crafted, and a few hundred bytes of zip or XML can name billions of
// cells (a merged range over the whole sheet, one huge shared string used by every cell). The
// caps are far above a customer list (50,000 rows of a few dozen columns) and each refusal says
// what was over and what to do.
import { MAX_FILE_ROWS, MAX_IMPORT_COLUMNS } from '../../../src-shared/import-limits';
import { XlsxError } from './zip';

/** Columns and data rows a sheet may have: the same as a CSV file. */
export const MAX_COLUMNS = MAX_IMPORT_COLUMNS;
export const MAX_SHEET_ROWS = MAX_FILE_ROWS;
/** Cells of the table handed back, empty ones included (rows × columns), and filled cells read. */
export const MAX_CELLS = 5_000_000;
/** Characters of every cell of the table together (what the import dialog receives). */
export const MAX_TABLE_CHARS = 32 * 1024 * 1024;
/** Merged ranges a sheet may list. */
export const MAX_MERGES = 10_000;
/** Entries of the shared string table: 50,000 rows of 40 columns, every text different. */
export const MAX_SHARED_STRINGS = 2_000_000;
/** Entries of the style list (Excel's own limit on cell formats). */
export const MAX_STYLES = 64_000;

const fmt = (n: number) => n.toLocaleString('en');
const SMALLER = 'Save the customers you need as a smaller file or CSV.';

export const tooManyColumns = (width: number | null) =>
  new XlsxError(
    `This sheet uses ${width === null ? 'more than ' : ''}${fmt(width ?? MAX_COLUMNS)} columns; ` +
      `Fieldmap reads up to ${fmt(MAX_COLUMNS)}. Delete the columns you do not need, or save it as CSV.`,
  );

export const tooManyRows = (rows: number | null) =>
  new XlsxError(
    `This sheet has ${rows === null ? 'more than ' : ''}${fmt(rows ?? MAX_SHEET_ROWS)} rows; ` +
      `Fieldmap reads up to ${fmt(MAX_SHEET_ROWS)}. Split it into smaller files.`,
  );

export const tooManyCells = () =>
  new XlsxError(
    `This sheet has more than ${fmt(MAX_CELLS)} cells, more than Fieldmap reads. ${SMALLER}`,
  );

export const tooMuchText = () =>
  new XlsxError(
    `The cells of this sheet hold more than ${MAX_TABLE_CHARS / 1024 / 1024} million characters, ` +
      `more than Fieldmap reads. ${SMALLER}`,
  );

export const tooManyOf = (what: string, cap: number) =>
  new XlsxError(
    `This spreadsheet has more than ${fmt(cap)} ${what}, more than Fieldmap reads. ${SMALLER}`,
  );

/**
 * The cells and characters a sheet has given so far, counted as they are read and as merged
 * ranges copy their value, so a sheet is refused at the cap instead of after building it.
 */
export class SheetBudget {
  #cells = 0;
  #chars = 0;

  /** `count` more cells holding `chars` characters each. */
  take(count: number, chars: number): void {
    this.#cells += count;
    if (this.#cells > MAX_CELLS) throw tooManyCells();
    this.#chars += count * chars;
    if (this.#chars > MAX_TABLE_CHARS) throw tooMuchText();
  }
}
