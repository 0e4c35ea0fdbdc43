// The customer editor's form as plain data: every writable field as the text the rep types,
// the checks with their messages, and the conversion to the fields an op carries.
import {
  CUSTOMER_TEXT_FIELDS,
  emptyCustomerFields,
  writableFieldsOf,
  type Customer,
  type CustomerChanges,
  type CustomerFields,
  type CustomerWritableField,
} from '../../../../src-shared';
import { fromAccountTime, toAccountTime, type TimeUnit } from '../../../../src-shared/time-units';
import { text } from './text';

/** The fields the form edits as plain text inputs. */
export const TEXT_FIELDS = CUSTOMER_TEXT_FIELDS;
export type TextField = (typeof TEXT_FIELDS)[number];

/** What the inputs hold. Dates are `YYYY-MM-DD` / `YYYY-MM-DDTHH:MM` in local time. */
export type FormValues = Record<TextField, string> & {
  color: string;
  groups: string[];
  dealAmount: string;
  latitude: string;
  longitude: string;
  numVisits: string;
  lastVisit: string;
  remindAt: string;
};

export type FormErrors = Partial<Record<keyof FormValues, string>>;

const pad = (n: number) => String(n).padStart(2, '0');

function localDate(ms: number, withTime: boolean): string {
  const d = new Date(ms);
  const date = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
  return withTime ? `${date}T${pad(d.getHours())}:${pad(d.getMinutes())}` : date;
}

/** The form's values for a record (an empty form for a new customer). */
export function formValuesOf(record: Customer | CustomerFields | null): FormValues {
  const fields = record ? writableFieldsOf(record) : emptyCustomerFields();
  const text = Object.fromEntries(TEXT_FIELDS.map((k) => [k, fields[k] ?? ''])) as Record<
    TextField,
    string
  >;
  const lastMs = fromAccountTime(fields.lastVisit);
  const remindMs = fromAccountTime(fields.remindAt);
  return {
    ...text,
    color: fields.color,
    groups: [...fields.groups],
    dealAmount: fields.dealAmount === null ? '' : String(fields.dealAmount),
    latitude: fields.latitude === null ? '' : String(fields.latitude),
    longitude: fields.longitude === null ? '' : String(fields.longitude),
    numVisits: String(fields.numVisits ?? 0),
    lastVisit: lastMs === null ? '' : localDate(lastMs, false),
    remindAt: remindMs === null ? '' : localDate(remindMs, true),
  };
}

// A practical shape check: something@something.tld, no spaces (the service does not check).
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DECIMAL_RE = /^-?(\d+\.?\d*|\.\d+)$/;

function coordinateError(
  typed: string,
  limit: number,
  other: string,
  said: typeof text.form.latitude,
): string | null {
  const t = typed.trim();
  if (t === '') return other.trim() === '' ? null : said.missing;
  if (!DECIMAL_RE.test(t)) return said.notNumber;
  const n = Number(t);
  if (n < -limit || n > limit) return said.range(limit);
  return null;
}

/** Every field's problem, by field; empty when the form can be saved. */
export function validateForm(values: FormValues, colors: readonly string[]): FormErrors {
  const errors: FormErrors = {};
  if (values.name.trim() === '') errors.name = text.form.nameRequired;
  const email = values.email.trim();
  if (email !== '' && !EMAIL_RE.test(email)) errors.email = text.form.email;
  const lat = coordinateError(values.latitude, 90, values.longitude, text.form.latitude);
  if (lat) errors.latitude = lat;
  const lon = coordinateError(values.longitude, 180, values.latitude, text.form.longitude);
  if (lon) errors.longitude = lon;
  const deal = values.dealAmount.trim();
  if (deal !== '' && !DECIMAL_RE.test(deal)) errors.dealAmount = text.form.dealAmount;
  const visits = values.numVisits.trim();
  if (!/^\d+$/.test(visits) || !Number.isSafeInteger(Number(visits)))
    errors.numVisits = text.form.numVisits;
  if (values.lastVisit !== '' && Number.isNaN(Date.parse(values.lastVisit)))
    errors.lastVisit = text.form.date;
  if (values.remindAt !== '' && Number.isNaN(Date.parse(values.remindAt)))
    errors.remindAt = text.form.dateTime;
  if (colors.length > 0 && !colors.includes(values.color)) errors.color = text.form.color;
  return errors;
}

function timeValue(text: string, unit: TimeUnit, withTime: boolean): number {
  if (text === '') return 0;
  // A date alone is midnight local time (Date.parse reads a bare date as UTC).
  const ms = new Date(withTime ? text : `${text}T00:00`).getTime();
  return toAccountTime(ms, unit);
}

/** The complete writable fields of a valid form; dates in the account's unit (time-units.ts). */
export function fieldsOf(values: FormValues, unit: TimeUnit): CustomerFields {
  const fields = emptyCustomerFields();
  for (const key of TEXT_FIELDS) fields[key] = key === 'name' ? values.name.trim() : values[key];
  const deal = values.dealAmount.trim();
  const lat = values.latitude.trim();
  const lon = values.longitude.trim();
  return {
    ...fields,
    color: values.color,
    groups: [...values.groups],
    dealAmount: deal === '' ? null : Number(deal),
    latitude: lat === '' ? null : Number(lat),
    longitude: lon === '' ? null : Number(lon),
    numVisits: Number(values.numVisits.trim()),
    lastVisit: timeValue(values.lastVisit, unit, false),
    remindAt: timeValue(values.remindAt, unit, true),
  };
}

function sameValue(a: FormValues[keyof FormValues], b: FormValues[keyof FormValues]): boolean {
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((x, i) => x === b[i]);
  return a === b;
}

/**
 * Only the fields the rep changed in the form (compared as typed, so a value that does not
 * round-trip exactly, such as a visit time shown as a date, is not sent unless edited).
 */
export function changedFields(
  initial: FormValues,
  current: FormValues,
  fields: CustomerFields,
): CustomerChanges {
  const changes: Record<string, unknown> = {};
  for (const key of Object.keys(fields) as CustomerWritableField[]) {
    if (!sameValue(initial[key], current[key])) changes[key] = fields[key];
  }
  return changes as CustomerChanges;
}
