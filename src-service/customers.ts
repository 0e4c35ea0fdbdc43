// Validation of customer bodies (create and update) and the stored customer record.
import {
  CUSTOMER_TEXT_FIELDS,
  CUSTOMER_WRITABLE_FIELDS,
  emptyCustomerFields,
  MAX_FIELD_CHARS,
  type CustomerWritableField,
} from '../src-shared/domain';
import { HttpError, badField } from './http-error';

/** A customer as held in the store: canonical types, instants as epoch ms. */
export interface StoredCustomer {
  id: string;
  name: string;
  company: string;
  address: string;
  city: string;
  state: string;
  zip: string;
  country: string;
  email: string;
  phone: string;
  color: string;
  groups: string[];
  dealAmount: number | null;
  notes: string;
  latitude: number | null;
  longitude: number | null;
  lastVisit: number;
  numVisits: number;
  remindAt: number;
  remindType: string;
  custom0: string;
  custom1: string;
  custom2: string;
  custom3: string;
  custom4: string;
  custom5: string;
  custom6: string;
  custom7: string;
  custom8: string;
  custom9: string;
  createdAtMs: number;
  updatedAtMs: number;
}

export type StoredFields = Omit<StoredCustomer, 'id' | 'createdAtMs' | 'updatedAtMs'>;
export type FieldChanges = Partial<StoredFields>;

const TEXT_FIELDS = new Set<string>(CUSTOMER_TEXT_FIELDS);
const INT_FIELDS = new Set<string>(['lastVisit', 'numVisits', 'remindAt']);
const READ_ONLY_FIELDS = new Set(['id', 'createdAt', 'updatedAt']);
const WRITABLE = new Set<string>(CUSTOMER_WRITABLE_FIELDS);
const MAX_GROUPS = 1_000;
const DECIMAL = /^-?\d+(\.\d+)?$/;

/**
 * Defaults of every writable field: what a create leaves unset and a replace resets to. They
 * are the client's empty customer (src-shared), whose values all have the stored types.
 */
export function defaultFields(): StoredFields {
  return emptyCustomerFields() as StoredFields;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function checkKeys(body: Record<string, unknown>): void {
  const keys = Object.keys(body);
  const readOnly = keys.filter((k) => READ_ONLY_FIELDS.has(k));
  if (readOnly.length > 0) {
    throw new HttpError(
      400,
      'read_only_fields',
      `Read-only fields cannot be written: ${readOnly.join(', ')}.`,
      { fields: readOnly },
    );
  }
  const unknown = keys.filter((k) => !WRITABLE.has(k));
  if (unknown.length > 0) {
    throw new HttpError(400, 'unknown_fields', `Unknown fields: ${unknown.join(', ')}.`, {
      fields: unknown,
    });
  }
}

function text(field: string, value: unknown): string {
  if (typeof value !== 'string') throw badField(field, 'must be a string');
  if (value.length > MAX_FIELD_CHARS)
    throw badField(field, `is longer than ${MAX_FIELD_CHARS} characters`);
  return value;
}

function integer(field: string, value: unknown): number {
  if (value === null) return 0;
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
    throw badField(field, 'must be an integer or null');
  }
  if (field === 'numVisits' && value < 0) throw badField(field, 'must not be negative');
  return value;
}

function coordinate(field: 'latitude' | 'longitude', value: unknown): number | null {
  if (value === null) return null;
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw badField(field, 'must be a number or null');
  }
  const limit = field === 'latitude' ? 90 : 180;
  if (value < -limit || value > limit)
    throw badField(field, `must be within [-${limit}, ${limit}]`);
  return value;
}

function dealAmount(value: unknown): number | null {
  if (value === null) return null;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  // Plain decimal notation only: "1e3" or "0x10" are numbers to JavaScript, not to a user.
  if (typeof value === 'string' && DECIMAL.test(value) && Number.isFinite(Number(value))) {
    return Number(value);
  }
  throw badField('dealAmount', 'must be a number, a numeric string or null');
}

function groups(value: unknown): string[] {
  if (!Array.isArray(value) || value.length > MAX_GROUPS) {
    throw badField('groups', `must be an array of at most ${MAX_GROUPS} strings`);
  }
  return value.map((g) => {
    if (typeof g !== 'string' || g === '' || g.length > 200) {
      throw badField('groups', 'must hold only non-empty strings');
    }
    return g;
  });
}

/**
 * Checks a customer body and returns its fields in stored form. Throws HttpError 400 naming
 * the first problem. `requireName`: create and replace need a non-empty name.
 */
export function parseCustomerBody(
  body: unknown,
  opts: { requireName: boolean; colors: readonly string[] },
): FieldChanges {
  if (!isPlainObject(body)) {
    throw new HttpError(400, 'invalid_body', 'The body must be a JSON object of customer fields.');
  }
  checkKeys(body);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body) as [CustomerWritableField, unknown][]) {
    if (TEXT_FIELDS.has(key)) out[key] = text(key, value);
    else if (INT_FIELDS.has(key)) out[key] = integer(key, value);
    else if (key === 'latitude' || key === 'longitude') out[key] = coordinate(key, value);
    else if (key === 'dealAmount') out[key] = dealAmount(value);
    else if (key === 'groups') out[key] = groups(value);
    else if (key === 'color') {
      const color = text(key, value);
      if (!opts.colors.includes(color)) {
        throw badField('color', `must be one of the account's colors (${opts.colors.join(', ')})`);
      }
      out[key] = color;
    }
  }
  if ('name' in out && (out.name as string).trim() === '')
    throw badField('name', 'must not be empty');
  if (opts.requireName && !('name' in out)) throw badField('name', 'is required');
  return out as FieldChanges;
}
