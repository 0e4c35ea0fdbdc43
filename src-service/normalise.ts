// The "normalising store" variant: values kept in the service's own form, the way a PHP/MySQL
// backend plausibly stores them. A client must recognise its record in this form: it is what
// every list and get returns after a create.
import { CUSTOM_FIELD_KEYS, CUSTOMER_SEARCH_FIELDS } from '../src-shared/domain';
import type { FieldChanges } from './customers';

/** Single-line text columns: VARCHAR(255), whitespace trimmed and collapsed. */
const LINE_FIELDS = [
  ...CUSTOMER_SEARCH_FIELDS,
  'email',
  'phone',
  'remindType',
  ...CUSTOM_FIELD_KEYS,
] as const;
const VARCHAR = 255;

/** htmlspecialchars($s, ENT_QUOTES): the classic "escape on input" habit. */
function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#039;');
}

/** trim() and a preg_replace('/\s+/', ' ') on one line, then MySQL's silent cut to the column. */
function line(text: string): string {
  return escapeHtml(text.trim().replace(/\s+/g, ' ')).slice(0, VARCHAR);
}

const round = (value: number, decimals: number): number => {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
};

/** The fields as the normalising store keeps them (only the fields given). */
export function normaliseStored(fields: FieldChanges): FieldChanges {
  const out: FieldChanges = { ...fields };
  for (const key of LINE_FIELDS) {
    const value = out[key];
    if (typeof value === 'string') out[key] = line(value);
  }
  if (out.state !== undefined) out.state = out.state.toUpperCase();
  if (out.email !== undefined) out.email = out.email.toLowerCase();
  if (out.notes !== undefined) out.notes = escapeHtml(out.notes.trim());
  if (out.groups !== undefined) out.groups = [...new Set(out.groups.map((g) => line(g)))];
  // DECIMAL(8,5) / DECIMAL(12,2) columns.
  if (typeof out.latitude === 'number') out.latitude = round(out.latitude, 5);
  if (typeof out.longitude === 'number') out.longitude = round(out.longitude, 5);
  if (typeof out.dealAmount === 'number') out.dealAmount = round(out.dealAmount, 2);
  return out;
}

/** A DECIMAL(12,2) as PDO returns it: a string with two decimals. */
export function emitDecimal(value: number): string {
  return value.toFixed(2);
}
