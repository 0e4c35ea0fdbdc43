// Customers as CSV rows: the export columns (every field, custom0..custom9 included, in a form
// that imports back to the same values), header auto-mapping, per-row validation with reasons
// and duplicate detection (same name and address, case- and whitespace-insensitive). Works on
// string cells; parsing and writing the CSV text itself is left to the caller (papaparse).
import * as v from 'valibot';
import {
  groupsCell,
  guardText,
  idCell,
  NUMBER_RE,
  parseGroups,
  timestampCell,
  unguardText,
  visitDateCell,
  visitDateValue,
} from './csv-cells';
import { fromDecimalComma } from './csv-format';
import {
  CustomerFieldsSchema,
  CUSTOM_FIELD_KEYS,
  CUSTOMER_WRITABLE_FIELDS,
  emptyCustomerFields,
  MAX_FIELD_CHARS,
  MAX_GROUPS,
  PALETTE,
  type Customer,
  type CustomerFields,
  type CustomerWritableField,
} from './domain';
import type { TimeUnit } from './time-units';

export { groupsCell } from './csv-cells';

/** Export columns: the id, every writable field, then the service's timestamps (ignored on import). */
export const EXPORT_COLUMNS = [
  'id',
  ...CUSTOMER_WRITABLE_FIELDS,
  'createdAt',
  'updatedAt',
] as const;

/** One customer as export cells, in EXPORT_COLUMNS order. */
export function exportRow(customer: Customer): string[] {
  return EXPORT_COLUMNS.map((column) => {
    if (column === 'createdAt' || column === 'updatedAt') return timestampCell(customer[column]);
    if (column === 'id') return idCell(customer.id);
    if (column === 'lastVisit' || column === 'remindAt') return visitDateCell(customer[column]);
    const value = customer[column];
    if (column === 'groups') return groupsCell((value as string[] | undefined) ?? []);
    if (value === null || value === undefined) return '';
    return typeof value === 'string' ? guardText(value) : String(value);
  });
}

/** The export table: header row, then one row per customer. */
export function exportTable(customers: readonly Customer[]): string[][] {
  return [[...EXPORT_COLUMNS], ...customers.map(exportRow)];
}

/** Where each file column goes: a writable field, or null (ignored). Index = column. */
export type ColumnMapping = Array<CustomerWritableField | null>;

const SYNONYMS: Partial<Record<CustomerWritableField, string[]>> = {
  name: ['customername', 'contactname', 'fullname', 'contact'],
  company: ['companyname', 'organization', 'organisation', 'business', 'account'],
  address: ['street', 'streetaddress', 'address1', 'addressline1'],
  state: ['province', 'region', 'county'],
  zip: ['zipcode', 'postcode', 'postalcode', 'plz'],
  email: ['emailaddress', 'mail'],
  phone: ['telephone', 'tel', 'phonenumber', 'mobile'],
  color: ['colour', 'pincolor', 'pincolour'],
  groups: ['group', 'tags'],
  dealAmount: ['deal', 'amount', 'dealvalue'],
  notes: ['note', 'comments', 'comment'],
  latitude: ['lat'],
  longitude: ['lng', 'lon', 'long'],
  numVisits: ['visits', 'visitcount'],
  remindAt: ['reminder', 'reminddate'],
};

const normHeader = (h: string) => h.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Guesses the field of each header by name (custom labels map to custom0..custom9). */
export function autoMapColumns(
  headers: readonly string[],
  customLabels: readonly string[] = [],
): ColumnMapping {
  const lookup = new Map<string, CustomerWritableField>();
  for (const field of CUSTOMER_WRITABLE_FIELDS) lookup.set(normHeader(field), field);
  for (const [field, names] of Object.entries(SYNONYMS)) {
    for (const name of names) lookup.set(name, field as CustomerWritableField);
  }
  customLabels.forEach((label, i) => {
    const key = normHeader(label);
    const field = CUSTOM_FIELD_KEYS[i];
    if (key !== '' && field && !lookup.has(key)) lookup.set(key, field);
  });
  const taken = new Set<CustomerWritableField>();
  return headers.map((header) => {
    const field = lookup.get(normHeader(header));
    if (!field || taken.has(field)) return null;
    taken.add(field);
    return field;
  });
}

/** A row checked for import. */
export interface CheckedRow {
  /** 0-based index among the data rows (the header is not counted). */
  index: number;
  fields: CustomerFields | null;
  /** Why the row cannot be imported (empty when it can). */
  errors: string[];
  /** Set when the row repeats an existing customer or an earlier row of the file. */
  duplicateOf?: { kind: 'customer'; id: string } | { kind: 'row'; index: number };
}

const NUMERIC_FIELDS = new Set(['dealAmount', 'latitude', 'longitude']);
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const INT_RE = /^\d+$/;

/** What main's IPC schema would refuse in checked fields: too long a text, too many groups. */
function limitErrors(fields: Record<string, unknown>): string[] {
  const errors: string[] = [];
  for (const [field, value] of Object.entries(fields)) {
    if (typeof value === 'string' && value.length > MAX_FIELD_CHARS) {
      errors.push(`${field}: longer than ${MAX_FIELD_CHARS} characters`);
    }
  }
  const groups = fields.groups as string[];
  if (groups.length > MAX_GROUPS) errors.push(`groups: more than ${MAX_GROUPS} groups`);
  else if (groups.some((g) => g.length > MAX_FIELD_CHARS)) {
    errors.push(`groups: a group name is longer than ${MAX_FIELD_CHARS} characters`);
  }
  return errors;
}

/**
 * Maps one row's cells to customer fields, collecting every reason it is not valid. Visit dates
 * (ISO dates or whole numbers) become lastVisit/remindAt in the account's `unit`; with
 * `decimalComma`, numbers may be written 48,137.
 */
export function checkRow(
  cells: readonly string[],
  mapping: ColumnMapping,
  colors: readonly string[] = PALETTE,
  unit: TimeUnit = 'seconds',
  decimalComma = false,
): { fields: CustomerFields | null; errors: string[] } {
  const fields = emptyCustomerFields() as Record<string, unknown>;
  const errors: string[] = [];
  const seen: Record<string, string> = {};
  mapping.forEach((field, col) => {
    if (field) seen[field] = unguardText(cells[col] ?? '');
  });
  for (const [field, raw] of Object.entries(seen)) {
    const text = raw.trim();
    // A semicolon file from European Excel writes 48,137 for 48.137 (numbers only).
    const cell = decimalComma && NUMERIC_FIELDS.has(field) ? fromDecimalComma(text) : text;
    if (field === 'groups') {
      const groups = parseGroups(raw);
      if (groups === null) errors.push('groups: not a list of group names');
      else fields.groups = groups;
    } else if (field === 'dealAmount') {
      if (cell === '') fields.dealAmount = null;
      else if (NUMBER_RE.test(cell)) fields.dealAmount = Number(cell);
      else errors.push(`dealAmount: "${cell}" is not a number`);
    } else if (field === 'latitude' || field === 'longitude') {
      const limit = field === 'latitude' ? 90 : 180;
      if (cell === '') fields[field] = null;
      else if (!NUMBER_RE.test(cell)) errors.push(`${field}: "${cell}" is not a number`);
      else if (Math.abs(Number(cell)) > limit)
        errors.push(`${field}: ${cell} is out of range (±${limit})`);
      else fields[field] = Number(cell);
    } else if (field === 'lastVisit' || field === 'remindAt') {
      const value = visitDateValue(cell, unit);
      if (value === null) errors.push(`${field}: "${cell}" is not a date`);
      else fields[field] = value;
    } else if (field === 'numVisits') {
      if (cell === '') fields[field] = 0;
      else if (!INT_RE.test(cell) || !Number.isSafeInteger(Number(cell))) {
        errors.push(`${field}: "${cell}" is not a whole number`);
      } else fields[field] = Number(cell);
    } else if (field === 'color') {
      if (cell === '') continue;
      const match = colors.find((c) => c.toLowerCase() === cell.toLowerCase().replace(/\s+/g, ' '));
      if (match) fields.color = match;
      else errors.push(`color: "${cell}" is not one of the account's colors`);
    } else if (field === 'email') {
      if (cell !== '' && !EMAIL_RE.test(cell))
        errors.push(`email: "${cell}" is not an e-mail address`);
      fields.email = raw;
    } else {
      fields[field] = raw;
    }
  }
  if (String(fields.name).trim() === '') errors.push('name: required');
  errors.push(...limitErrors(fields));
  if ((fields.latitude === null) !== (fields.longitude === null)) {
    errors.push('position: latitude and longitude go together');
  }
  return errors.length > 0
    ? { fields: null, errors }
    : { fields: fields as CustomerFields, errors };
}

/** The duplicate key: name and address, lower-cased, whitespace collapsed. */
export function duplicateKey(c: Pick<CustomerFields, 'name' | 'address'>): string {
  const norm = (s: string) => s.toLowerCase().replace(/\s+/g, ' ').trim();
  return `${norm(c.name)}\u0000${norm(c.address)}`;
}

/** Rows one import may hold. */
export const MAX_IMPORT_ROWS = 50_000;
const ROW_LIMIT_ERROR = `row limit: one import takes at most ${MAX_IMPORT_ROWS.toLocaleString('en')} customers`;

/** A cell the file gave no value for (a spreadsheet formula never calculated...): `row` is a data row index. */
export interface CellProblem {
  row: number;
  col: number;
  message: string;
}

/**
 * Checks every data row; duplicates of existing customers or of earlier rows are marked, and
 * importable rows past MAX_IMPORT_ROWS are errors (main would refuse the whole import). A cell
 * problem in a mapped column makes its row invalid, with the field and the problem as reason.
 */
export function checkRows(
  rows: readonly (readonly string[])[],
  mapping: ColumnMapping,
  existing: readonly Customer[],
  colors: readonly string[] = PALETTE,
  unit: TimeUnit = 'seconds',
  /** decimalComma: number cells write the decimal mark as a comma (a semicolon CSV). */
  options: { cellIssues?: readonly CellProblem[]; decimalComma?: boolean } = {},
): CheckedRow[] {
  const known = new Map<string, string>();
  for (const c of existing) if (!known.has(duplicateKey(c))) known.set(duplicateKey(c), c.id);
  const inFile = new Map<string, number>();
  const cellErrors = new Map<number, string[]>();
  for (const issue of options.cellIssues ?? []) {
    const field = mapping[issue.col];
    if (!field) continue;
    const list = cellErrors.get(issue.row) ?? [];
    list.push(`${field}: ${issue.message}`);
    cellErrors.set(issue.row, list);
  }
  let importable = 0;
  return rows.map((cells, index) => {
    const checked = checkRow(cells, mapping, colors, unit, options.decimalComma);
    const problems = cellErrors.get(index);
    const errors = problems ? [...problems, ...checked.errors] : checked.errors;
    const fields = problems ? null : checked.fields;
    const row: CheckedRow = { index, fields, errors };
    if (!fields) return row;
    const key = duplicateKey(fields);
    const id = known.get(key);
    const earlier = inFile.get(key);
    if (id !== undefined) row.duplicateOf = { kind: 'customer', id };
    else if (earlier !== undefined) row.duplicateOf = { kind: 'row', index: earlier };
    else if (importable >= MAX_IMPORT_ROWS)
      return { index, fields: null, errors: [ROW_LIMIT_ERROR] };
    else {
      inFile.set(key, index);
      importable++;
    }
    return row;
  });
}

/** A mapped file's data rows: cells of blank lines are dropped. */
export function dataRows(table: readonly (readonly string[])[]): string[][] {
  return table
    .slice(1)
    .filter((r) => r.some((c) => c.trim() !== ''))
    .map((r) => [...r]);
}

/**
 * An import's id: a UUID the renderer picks, lower-cased, since it names the import's files and
 * Windows and macOS would take two ids differing only by case for the same files.
 */
export const ImportIdSchema = v.pipe(v.string(), v.uuid(), v.toLowerCase());

/** An import handed to main: checked rows, queued as creates in this order. */
export const StartImportRequestSchema = v.strictObject({
  /** The same id twice is the same import (idempotent). */
  importId: ImportIdSchema,
  fileName: v.pipe(v.string(), v.maxLength(500)),
  rows: v.pipe(v.array(CustomerFieldsSchema), v.minLength(1), v.maxLength(MAX_IMPORT_ROWS)),
});
export type StartImportRequest = v.InferOutput<typeof StartImportRequestSchema>;

/** Progress of an import: rows handed to the outbox, and how many of those still wait for the service. */
export const ImportStatusSchema = v.object({
  importId: v.string(),
  fileName: v.string(),
  startedAt: v.number(),
  total: v.number(),
  /** Rows handed to the outbox so far. */
  queued: v.number(),
  /** Queued rows not yet on the service (pending or in flight). */
  waiting: v.number(),
  /** Queued rows the service refused (see the Changes view). */
  needsAttention: v.number(),
  /** Rows on the service. */
  created: v.number(),
  state: v.picklist(['queuing', 'sending', 'paused', 'done']),
  /** Seconds left at the account's request rate; null when unknown. */
  etaSeconds: v.nullable(v.number()),
});
export type ImportStatus = v.InferOutput<typeof ImportStatusSchema>;
