// Single CSV cells both ways: text guarded against spreadsheet formulas, groups as one cell,
// and lastVisit/remindAt as ISO dates (out) read back in the account's unit (in).
import type { Customer } from './domain';
import { isTempId } from './outbox-types';
import { timestampToEpochMs } from './time';
import { fromAccountTime, toAccountTime, type TimeUnit } from './time-units';

// Quotes then a character that makes a spreadsheet run the cell as a formula.
const FORMULA_LIKE = /^'*[=+\-@\t\r]/;
/** A plain decimal number: a spreadsheet reads it as a number, never as a formula. */
export const NUMBER_RE = /^-?(\d+(\.\d*)?|\.\d+)$/;

/** Text a spreadsheet would run as a formula gets a leading ' (stripped again on import). */
export function guardText(text: string): string {
  return FORMULA_LIKE.test(text) && !NUMBER_RE.test(text) ? `'${text}` : text;
}

/** The cell as it was before guardText. */
export function unguardText(text: string): string {
  return text.startsWith("'") && FORMULA_LIKE.test(text) ? text.slice(1) : text;
}

/** Groups as one (guarded) cell: "a; b", or a JSON array when a name would not survive the split. */
export function groupsCell(groups: readonly string[]): string {
  const plain = groups.every(
    (g) => g !== '' && !g.includes(';') && g.trim() === g && !g.startsWith('['),
  );
  return plain ? guardText(groups.join('; ')) : JSON.stringify(groups);
}

/** The groups of an (unguarded) cell; null when it is not a list of names. */
export function parseGroups(cell: string): string[] | null {
  const text = cell.trim();
  if (text.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (Array.isArray(parsed) && parsed.every((g) => typeof g === 'string')) return parsed;
    } catch {
      return null;
    }
    return null;
  }
  return text === ''
    ? []
    : text
        .split(';')
        .map((g) => g.trim())
        .filter((g) => g !== '');
}

/** A createdAt/updatedAt object as an ISO instant; one the app cannot read, as sent. */
export function timestampCell(value: unknown): string {
  if (!value || typeof value !== 'object') return '';
  const ts = value as Customer['createdAt'];
  const ms = timestampToEpochMs(ts);
  return Number.isNaN(ms) ? guardText(`${ts.date} ${ts.timezone}`) : new Date(ms).toISOString();
}

/** A lastVisit/remindAt value as an ISO instant, whatever unit stored it; '' when unset. */
export function visitDateCell(value: number | null | undefined): string {
  const ms = fromAccountTime(value);
  return ms === null ? '' : new Date(ms).toISOString();
}

/** The id column: a temp id (a customer not on the service yet) is no id anywhere else. */
export function idCell(id: string): string {
  return isTempId(id) ? '' : guardText(id);
}

const DATE_RE =
  /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * A lastVisit/remindAt cell in the account's unit: '' is unset (0); a whole number is taken
 * as stored; an ISO date or date-time (no zone: UTC) is converted. null when it is neither.
 */
export function visitDateValue(cell: string, unit: TimeUnit): number | null {
  const text = cell.trim();
  if (text === '') return 0;
  if (/^\d+$/.test(text)) return Number.isSafeInteger(Number(text)) ? Number(text) : null;
  const m = DATE_RE.exec(text);
  if (!m) return null;
  const [, day, hh = '00', mm = '00', ss = '00', fraction = '', zone = 'Z'] = m;
  const ms = Date.parse(`${day}T${hh}:${mm}:${ss}${fraction.slice(0, 4)}${zone.toUpperCase()}`);
  if (!Number.isFinite(ms) || ms <= 0) return null;
  // Date.parse rolls 2024-02-30 over to March: refuse days the calendar does not have.
  if (zone.toUpperCase() === 'Z' && new Date(ms).toISOString().slice(0, 10) !== day) return null;
  return toAccountTime(ms, unit);
}
