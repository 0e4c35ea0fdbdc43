// Recognising the record a create produced when the service stores values in its own form:
// trimmed or collapsed whitespace, another case, HTML entities, text cut to a column's width,
// coordinates rounded to 5 decimals, dealAmount as "1234.50". "Not equal as sent" is not proof
// of absence: fields compare tolerantly, and records that resemble the create are candidates.
import {
  CUSTOMER_WRITABLE_FIELDS,
  type Customer,
  type CustomerFields,
  type CustomerWritableField,
} from '../../../../src-shared/domain';
import { normaliseFields } from '../merge';

/** Coordinates stored with 5 decimals are off by at most 5e-6. */
const COORDINATE_TOLERANCE = 1e-5 + 1e-9;
/** A money amount stored with 2 decimals is off by at most 0.005. */
const AMOUNT_TOLERANCE = 0.005 + 1e-9;
/** A stored text this long may be a column's cut of a longer one. */
const MIN_CUT_LENGTH = 200;

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
};

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (all, name: string) => {
    if (name[0] === '#') {
      const code =
        name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : +name.slice(1);
      return Number.isSafeInteger(code) && code <= 0x10ffff ? String.fromCodePoint(code) : all;
    }
    return ENTITIES[name.toLowerCase()] ?? all;
  });
}

/** One spelling of a text whatever the service did to it: no entities, case, or extra spaces. */
export function foldText(value: unknown): string {
  if (value === null || value === undefined) return '';
  return decodeEntities(String(value)).normalize('NFC').replace(/\s+/g, ' ').trim().toLowerCase();
}

function textEqual(sent: unknown, stored: unknown): boolean {
  const a = foldText(sent);
  const b = foldText(stored);
  if (a === b) return true;
  // A column cut the text: what is stored is the start of what was sent.
  return b.length >= MIN_CUT_LENGTH && a.length > b.length && a.startsWith(b);
}

function numberEqual(a: unknown, b: unknown, tolerance: number): boolean {
  const absent = (v: unknown) => v === null || v === undefined;
  if (absent(a) || absent(b)) return absent(a) && absent(b);
  const x = Number(a);
  const y = Number(b);
  return Number.isFinite(x) && Number.isFinite(y) && Math.abs(x - y) <= tolerance;
}

function groupsEqual(a: unknown, b: unknown): boolean {
  const fold = (g: unknown) =>
    [...new Set((Array.isArray(g) ? g : []).map(foldText))].filter((s) => s !== '').sort();
  return JSON.stringify(fold(a)) === JSON.stringify(fold(b));
}

/** Whether the field the rep sent and the field the service stored hold the same value. */
export function fieldMatches(
  field: CustomerWritableField,
  sent: unknown,
  stored: unknown,
): boolean {
  switch (field) {
    case 'latitude':
    case 'longitude':
      return numberEqual(sent, stored, COORDINATE_TOLERANCE);
    case 'dealAmount':
      return numberEqual(sent, stored, AMOUNT_TOLERANCE);
    case 'lastVisit':
    case 'numVisits':
    case 'remindAt':
      return numberEqual(sent, stored, 0);
    case 'groups':
      return groupsEqual(sent, stored);
    default:
      return textEqual(sent, stored);
  }
}

/** How a server record compares with what a create sent. */
export interface Resemblance {
  /** Every field matches tolerantly: the service's form of what was sent. */
  same: boolean;
  /** The name matches, or most fields the rep filled in do: worth asking the rep. */
  similar: boolean;
  /** Fields the rep filled in that match (ranks candidates). */
  score: number;
}

export function resemblance(sent: CustomerFields, record: Customer | CustomerFields): Resemblance {
  const a = normaliseFields(sent) as Record<string, unknown>;
  const b = normaliseFields(record) as Record<string, unknown>;
  let same = true;
  let filled = 0;
  let score = 0;
  for (const field of CUSTOMER_WRITABLE_FIELDS) {
    const ok = fieldMatches(field, a[field], b[field]);
    if (!ok) same = false;
    const value = a[field];
    const isFilled =
      value !== null &&
      value !== '' &&
      value !== 0 &&
      !(Array.isArray(value) && value.length === 0);
    if (!isFilled || field === 'color') continue;
    filled++;
    if (ok) score++;
  }
  const nameMatches = fieldMatches('name', a.name, b.name);
  const similar = same || nameMatches || (filled >= 2 && score * 2 > filled);
  return { same, similar, score };
}

/** True when the record is the service's form of what the create sent. */
export function sameRecord(sent: CustomerFields, record: Customer | CustomerFields): boolean {
  return resemblance(sent, record).same;
}

/** Records that resemble a create without matching it, best first (for the rep to choose). */
export function candidatesFor(sent: CustomerFields, records: Customer[], limit = 5): Customer[] {
  return records
    .map((record) => ({ record, r: resemblance(sent, record) }))
    .filter(({ r }) => r.similar)
    .sort((x, y) => y.r.score - x.r.score)
    .slice(0, limit)
    .map(({ record }) => record);
}
