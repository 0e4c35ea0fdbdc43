// One worksheet part as cells: each <c>'s value as text (shared and inline strings, booleans,
// numbers under their style's format, a formula's saved result), or, when there is no value to
// read (a formula never calculated, an error such as #DIV/0!), the reason, for the rows that map
// that column. Also the merged ranges (<mergeCell ref="A1:C1"/>).
import { numberText, type NumberShape } from './cell-format';
import {
  MAX_COLUMNS,
  MAX_MERGES,
  MAX_SHEET_ROWS,
  tooManyColumns,
  tooManyOf,
  tooManyRows,
  type SheetBudget,
} from './limits';
import { officeText, parseXmlPausing, XmlError } from './xml';

export interface SheetCell {
  text: string;
  /** Why the cell has no value to import. */
  issue?: string;
}

export interface SheetCells {
  /** Row number (1-based) → column (0-based) → cell. */
  rows: Map<number, Map<number, SheetCell>>;
  merges: string[];
}

/** "A" → 0, "AB" → 27. */
export function columnIndex(letters: string): number {
  let n = 0;
  for (const c of letters.toUpperCase()) n = n * 26 + (c.charCodeAt(0) - 64);
  return n - 1;
}

/** "A", "B", ... of a 0-based column. */
export function columnLetters(col: number): string {
  let name = '';
  for (let n = col + 1; n > 0; n = Math.floor((n - 1) / 26)) {
    name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  }
  return name;
}

/** "B12" → { col: 1, row: 12 }; null when it is no cell reference. */
export function parseRef(ref: string): { col: number; row: number } | null {
  const m = /^\$?([A-Z]{1,3})\$?(\d{1,7})$/i.exec(ref);
  if (!m) return null;
  const col = columnIndex(m[1]!);
  const row = Number(m[2]);
  return col < 16_384 && row >= 1 ? { col, row } : null;
}

export interface SheetContext {
  shared: readonly string[];
  styles: readonly NumberShape[];
  date1904: boolean;
}

const shortFormula = (f: string) => (f.length > 60 ? `${f.slice(0, 57)}...` : f);

/**
 * Reads the sheet, pausing now and then (parseXmlPausing). Every cell kept is taken from
 * `budget`, and a value past the last column or row Fieldmap reads refuses the sheet there.
 */
export async function readSheetCells(
  xml: string,
  ctx: SheetContext,
  pause: () => Promise<void>,
  budget: SheetBudget,
): Promise<SheetCells> {
  const rows = new Map<number, Map<number, SheetCell>>();
  const merges: string[] = [];
  // Rows with a value: the header and the data rows toTable keeps.
  const filledRows = new Set<number>();
  let rowNumber = 0;
  let col = -1;
  let cell: { ref: string; t: string; s: number; v: string | null; f: string | null } | null = null;
  let capture: 'v' | 'f' | 'is' | null = null;
  let inInline = false;
  let phonetic = 0;

  const finish = () => {
    if (!cell) return;
    const { ref, t, s, v, f } = cell;
    let out: SheetCell;
    if (t === 'inlineStr') out = { text: officeText(v ?? '') };
    else if (v === null) {
      out =
        f !== null
          ? {
              text: '',
              issue: `${ref} has a formula${f ? ` (=${shortFormula(f)})` : ''} with no saved value; open the file in Excel, let it calculate and save it again`,
            }
          : { text: '' };
    } else if (t === 's') {
      const text = ctx.shared[Number(v)];
      if (text === undefined || !/^\d+$/.test(v.trim())) {
        throw new XmlError(`${ref} names a shared text that does not exist`);
      }
      out = { text };
    } else if (t === 'str') out = { text: officeText(v) };
    else if (t === 'b') out = { text: v.trim() === '1' ? 'TRUE' : 'FALSE' };
    else if (t === 'e') out = { text: '', issue: `${ref} shows the error ${v.trim()} in Excel` };
    else if (t === 'd') out = { text: v.trim().replace(/T00:00:00(\.0+)?Z?$/, '') };
    else {
      const shape = ctx.styles[s] ?? { kind: 'general' };
      const text = numberText(v, shape, ctx.date1904);
      out =
        text !== null
          ? { text }
          : shape.kind === 'date'
            ? { text: '', issue: `${ref} holds ${v.trim()}, which Excel shows as no date` }
            : { text: v };
    }
    if (out.text !== '' || out.issue) {
      if (out.text.trim() !== '' || out.issue) {
        if (col >= MAX_COLUMNS) throw tooManyColumns(null);
        filledRows.add(rowNumber);
        if (filledRows.size > MAX_SHEET_ROWS + 1) throw tooManyRows(null);
      }
      budget.take(1, out.text.length);
      let row = rows.get(rowNumber);
      if (!row) rows.set(rowNumber, (row = new Map()));
      row.set(col, out);
    }
    cell = null;
  };

  await parseXmlPausing(
    xml,
    {
      open(name, attrs) {
        if (name === 'row') {
          const r = attrs.r !== undefined ? Number(attrs.r) : rowNumber + 1;
          if (!Number.isInteger(r) || r < 1 || r > 1_048_576)
            throw new XmlError('a bad row number');
          rowNumber = r;
          col = -1;
        } else if (name === 'c') {
          const at = attrs.r !== undefined ? parseRef(attrs.r) : { col: col + 1, row: rowNumber };
          if (!at) throw new XmlError(`a bad cell reference ${String(attrs.r).slice(0, 20)}`);
          col = at.col;
          rowNumber = at.row;
          const ref = `${columnLetters(col)}${rowNumber}`;
          cell = { ref, t: attrs.t ?? 'n', s: Number(attrs.s ?? 0), v: null, f: null };
        } else if (cell && name === 'v') {
          capture = 'v';
          cell.v = '';
        } else if (cell && name === 'f') {
          capture = 'f';
          cell.f = '';
        } else if (cell && name === 'is') {
          inInline = true;
          cell.v = '';
        } else if (inInline && name === 'rPh') phonetic++;
        else if (inInline && name === 't' && phonetic === 0) capture = 'is';
        else if (name === 'mergeCell' && attrs.ref) {
          if (merges.length >= MAX_MERGES) throw tooManyOf('merged ranges', MAX_MERGES);
          merges.push(attrs.ref);
        }
      },
      close(name) {
        if (name === 'c') finish();
        else if (name === 'v' || name === 'f' || name === 't') capture = null;
        else if (name === 'is') inInline = false;
        else if (name === 'rPh') phonetic--;
      },
      text(text) {
        if (!cell || capture === null) return;
        if (capture === 'f') cell.f += text;
        else cell.v += text;
      },
    },
    pause,
  );
  return { rows, merges };
}
