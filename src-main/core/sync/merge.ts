// Three-way merge of a rep's edit with the fresh server record, field by field, and the
// normalisation that makes two readings of the same value compare equal (the service may
// emit unmapped as null or 0/0, dealAmount as number or numeric string, null or 0 times).
import {
  CUSTOMER_WRITABLE_FIELDS,
  writableFieldsOf,
  type Customer,
  type CustomerChanges,
  type CustomerFields,
  type CustomerWritableField,
} from '../../../src-shared/domain';

const NUMERIC_RE = /^\s*-?\d+(\.\d+)?\s*$/;

/** One field both sides changed to different values. */
export interface FieldConflict {
  field: CustomerWritableField;
  baseValue: unknown;
  repValue: unknown;
  serverValue: unknown;
}

export interface MergeResult {
  /**
   * The complete record of writable fields: the PUT body. Fields the rep did not change are
   * the server's values exactly as received (its spelling: "353.27", 0/0, null times); only
   * the rep's changes are in the app's canonical form.
   */
  body: CustomerFields;
  conflicts: FieldConflict[];
  /** False when the server already holds the merged record (nothing to send). */
  changed: boolean;
}

/** The canonical form of a record: one spelling per value, whatever the service's reading. */
export function normaliseFields(fields: Customer | CustomerFields): CustomerFields {
  return canonicalise(writableFieldsOf(fields));
}

/** Rewrites the values of a copy in canonical form (a pull does this for 100k records). */
export function canonicalise<T extends CustomerFields>(out: T): T {
  if (typeof out.dealAmount === 'string' && NUMERIC_RE.test(out.dealAmount)) {
    out.dealAmount = Number(out.dealAmount);
  }
  if (out.lastVisit === null) out.lastVisit = 0;
  if (out.remindAt === null) out.remindAt = 0;
  const unmapped =
    out.latitude === null || out.longitude === null || (out.latitude === 0 && out.longitude === 0);
  if (unmapped) {
    out.latitude = null;
    out.longitude = null;
  }
  if (out.groups === undefined || out.groups === null) out.groups = [];
  return out;
}

/** Equality of two normalised field values (arrays by element). */
export function valueEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** True when every writable field of the two records is equal after normalisation. */
export function fieldsEqual(a: Customer | CustomerFields, b: Customer | CustomerFields): boolean {
  const na = normaliseFields(a);
  const nb = normaliseFields(b);
  return CUSTOMER_WRITABLE_FIELDS.every((k) => valueEqual(na[k], nb[k]));
}

/** Applies an edit to a record (absent keys keep the record's value). */
export function applyChanges(record: CustomerFields, changes: CustomerChanges): CustomerFields {
  const out = { ...record } as Record<string, unknown>;
  for (const [key, value] of Object.entries(changes)) {
    if (value !== undefined) out[key] = value;
  }
  return out as CustomerFields;
}

/**
 * Merges the rep's edit (base + changes) with the server record. Base null means the rep
 * edited a record created offline: the server record is then the base. Comparisons use the
 * canonical forms; the body starts from the server record as received, so a field the rep did
 * not change goes back byte for byte.
 */
export function threeWayMerge(
  base: Customer | CustomerFields | null,
  changes: CustomerChanges,
  server: Customer | CustomerFields,
): MergeResult {
  const theirs = normaliseFields(server);
  const ancestor = base === null ? theirs : normaliseFields(base);
  const mine = normaliseFields(applyChanges(ancestor, changes));
  const body = writableFieldsOf(server) as Record<string, unknown>;
  const conflicts: FieldConflict[] = [];
  const changedLocally = (field: CustomerWritableField) =>
    !valueEqual(mine[field], ancestor[field]);
  // Latitude and longitude travel as a pair: a half-edited position is not a position.
  const positionChanged = changedLocally('latitude') || changedLocally('longitude');
  for (const field of CUSTOMER_WRITABLE_FIELDS) {
    const isPosition = field === 'latitude' || field === 'longitude';
    if (isPosition ? !positionChanged : !changedLocally(field)) continue;
    const changedOnServer = !valueEqual(theirs[field], ancestor[field]);
    if (changedLocally(field) && changedOnServer && !valueEqual(theirs[field], mine[field])) {
      conflicts.push({
        field,
        baseValue: ancestor[field],
        repValue: mine[field],
        serverValue: theirs[field],
      });
    }
    // The rep's value wins by default; a conflict is logged so the rep can choose otherwise.
    body[field] = mine[field];
  }
  const merged = body as CustomerFields;
  return { body: merged, conflicts, changed: !fieldsEqual(merged, theirs) };
}
