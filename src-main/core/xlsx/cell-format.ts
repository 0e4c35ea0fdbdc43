// A numeric cell as the text the import reads: Excel keeps dates as serial day numbers and
// zip codes as plain numbers with a "00000" format, so the cell's number format decides.
// Date formats give an ISO date (or date-time, UTC as the CSV import reads it); "0000"-style
// formats keep their leading zeros; anything else is the number as Excel shows it in General
// (15 significant digits, so 0.1+0.2 reads 0.3).

/** Built-in number format ids that show a date or a time (ECMA-376 18.8.30, CJK ones included). */
const BUILTIN_DATE_IDS = new Set([
  14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51,
  52, 53, 54, 55, 56, 57, 58,
]);

/** How a style shows numbers. */
export type NumberShape = { kind: 'general' } | { kind: 'date' } | { kind: 'zeros'; width: number };

/** The first section of a format code, without quoted text, escapes, fills and [colour] tags. */
function bareCode(code: string): string {
  let out = '';
  let quoted = false;
  for (let i = 0; i < code.length; i++) {
    const c = code[i]!;
    if (quoted) {
      if (c === '"') quoted = false;
      continue;
    }
    if (c === '"') quoted = true;
    else if (c === '\\' || c === '_' || c === '*') i++;
    else if (c === ';') break;
    else if (c === '[') {
      const close = code.indexOf(']', i);
      const tag = close === -1 ? '' : code.slice(i + 1, close);
      // [h], [mm], [ss]: elapsed time, a time format; [Red], [$-409]: not.
      if (/^(h+|m+|s+)$/i.test(tag)) out += tag;
      i = close === -1 ? code.length : close;
    } else out += c;
  }
  return out;
}

/** The shape of numbers under a number format (id and, for custom ids, its code). */
export function numberShape(id: number, code: string | undefined): NumberShape {
  if (BUILTIN_DATE_IDS.has(id)) return { kind: 'date' };
  if (code === undefined) return { kind: 'general' };
  const bare = bareCode(code).replace(/general/gi, '');
  if (/^0+$/.test(bare)) return { kind: 'zeros', width: bare.length };
  if (/[dmyhs]/i.test(bare)) return { kind: 'date' };
  return { kind: 'general' };
}

/** The last serial day Excel shows as a date (9999-12-31). */
const MAX_SERIAL = 2_958_465;
const DAY_MS = 86_400_000;
/** Serial of 1970-01-01 in the 1900 date system. */
const EPOCH_1900 = 25_569;
/** Days between the 1900 and 1904 systems' day 0. */
const OFFSET_1904 = 1_462;

/** A serial day number as ISO text; null when Excel shows no date for it. */
export function serialToIso(serial: number, date1904: boolean): string | null {
  if (!Number.isFinite(serial) || serial < 0 || serial > MAX_SERIAL) return null;
  let day = serial + (date1904 ? OFFSET_1904 : 0);
  // The 1900 system counts a 29 February 1900 that never was: days before it are one earlier.
  if (!date1904 && serial < 60) day += 1;
  const ms = Math.round(((day - EPOCH_1900) * DAY_MS) / 1000) * 1000;
  const iso = new Date(ms).toISOString();
  if (serial < 1) return iso.slice(11, 19);
  return ms % DAY_MS === 0 ? iso.slice(0, 10) : iso.slice(0, 19);
}

/** A number as Excel's General format shows it. */
export function generalNumber(value: number): string {
  if (Number.isSafeInteger(value)) return String(value);
  return String(Number(value.toPrecision(15)));
}

/** The text of a numeric cell's value `raw` under `shape`; null when the value is no number or no date. */
export function numberText(raw: string, shape: NumberShape, date1904: boolean): string | null {
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value)) return null;
  if (shape.kind === 'date') return serialToIso(value, date1904);
  if (shape.kind === 'zeros' && Number.isInteger(value) && value >= 0) {
    return String(value).padStart(shape.width, '0');
  }
  return generalNumber(value);
}
