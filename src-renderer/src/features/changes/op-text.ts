// How queued ops read in the Changes view, and how an op's payload is edited as text fields.
import type { Op } from '../../../../src-shared';
import { text } from './text';

const KIND_LABELS: Record<Op['kind'], string> = text.kinds;

const STATE_LABELS: Record<Op['state'], string> = {
  pending: text.states.pending,
  'in-flight': text.states.inFlight,
  done: text.states.done,
  'needs-attention': text.states.needsAttention,
};

export function kindLabel(op: Op): string {
  return KIND_LABELS[op.kind];
}

export function stateLabel(op: Op): string {
  return STATE_LABELS[op.state];
}

/**
 * What the rep is told while new customers were sent but their arrival is not confirmed yet
 * (the answer was lost, or an error that may hide a commit): empty when there are none.
 */
export function checkingText(ops: readonly Op[]): string {
  const n = ops.filter((op) => op.kind === 'createCustomer' && op.state === 'in-flight').length;
  if (n === 0) return '';
  return text.checking(n);
}

/** Any value as one line of text (strings as they are). */
export function valueText(value: unknown): string {
  if (value === null || value === undefined || value === '') return text.empty;
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.length === 0 ? text.none : value.map(String).join(', ');
  return JSON.stringify(value);
}

/**
 * A short summary of what the op changes. `customLabels`: custom0..custom9 by the account's names
 * (editor/custom-field-names.ts), so a custom field reads as the rep knows it.
 */
export function opSummary(op: Op, customLabels: readonly string[] = []): string {
  const fieldName = (key: string): string =>
    text.summary.fields[key] ??
    (/^custom\d$/.test(key) ? customLabels[Number(key.slice(6))] : undefined) ??
    key;
  switch (op.kind) {
    case 'updateCustomer':
      // A moved pin (latitude and longitude) reads "position" once.
      return text.summary.changes([...new Set(Object.keys(op.payload).map(fieldName))].join(', '));
    case 'createRoute':
      return text.summary.stops(op.payload.customerIds.length);
    case 'updateCustomFields':
      return Object.entries(op.payload)
        .map(([k, v]) => `${k} = ${v}`)
        .join(', ');
    default:
      return '';
  }
}

/** An op's payload as editable text rows (absent for delete). */
export function payloadRows(op: Op): Array<[string, string]> {
  if (op.payload === null) return [];
  if (op.kind === 'createRoute') {
    return [
      ['routeName', op.payload.routeName],
      ['customerIds', op.payload.customerIds.join(', ')],
    ];
  }
  return Object.entries(op.payload).map(([k, v]) => [
    k,
    v === null ? '' : Array.isArray(v) ? v.join(', ') : String(v),
  ]);
}

const NUMERIC_OR_NULL = new Set(['latitude', 'longitude', 'dealAmount', 'lastVisit', 'remindAt']);

/** Text rows back to a payload of the op's shape, typed as the original values were. */
export function payloadFromRows(op: Op, rows: ReadonlyArray<[string, string]>): unknown {
  const original = (op.payload ?? {}) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, typed] of rows) {
    const before = original[key];
    if (Array.isArray(before)) {
      out[key] = typed
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '');
    } else if (op.kind === 'updateCustomFields' || typeof before === 'number') {
      out[key] = typed.trim() === '' && NUMERIC_OR_NULL.has(key) ? null : Number(typed.trim());
    } else if (before === null && NUMERIC_OR_NULL.has(key)) {
      out[key] = typed.trim() === '' ? null : Number(typed.trim());
    } else {
      out[key] = typed;
    }
  }
  return out;
}
