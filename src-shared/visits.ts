// Visits: logging one (lastVisit, numVisits, a dated note, a reminder) as an outbox op, and the
// "days since last visit" / "reminder due" views. Units follow the one rule of time-units.ts:
// a visit is always written in the account's unit, so other clients keep reading it right.
//
// Counting: a visit op sets numVisits to (the count the rep sees) + 1 and its base is the
// record the rep sees (server data with the rep's queued changes applied). So:
// - visits logged offline coalesce into one update whose numVisits is base + k: exactly k;
// - a visit logged while an earlier one is in flight merges cleanly once that one landed;
// - the op is sent once whatever the restarts (the outbox and the engine guarantee that).
// Known limit of the three-way merge (numVisits is merged as a value, not as a counter): if
// SOMEONE ELSE changed numVisits on the service between the base and the push, the rep's value
// wins (a conflict is logged when the two differ), so the other visit is not added on top.
import type { Customer, CustomerChanges } from './domain';
import { CUSTOMER_WRITABLE_FIELDS } from './domain';
import type { NewOp } from './outbox-types';
import { fromAccountTime, toAccountTime, type TimeUnit } from './time-units';

export { detectTimeUnit, fromAccountTime, toAccountTime, type TimeUnit } from './time-units';

export interface VisitInput {
  /** When the visit happened (epoch ms). */
  atMs: number;
  /** Appended to notes as a dated line when not blank. */
  note?: string;
  /** A follow-up: when (epoch ms) and what kind (e.g. call, visit, email). */
  reminder?: { atMs: number; type: string } | null;
}

/** The dated line a visit note adds: "YYYY-MM-DD visit: <note>" (UTC date). */
export function visitNoteLine(atMs: number, note: string): string {
  return `${new Date(atMs).toISOString().slice(0, 10)} visit: ${note.trim()}`;
}

/** The changes one visit makes to the record the rep sees. */
export function visitChanges(shown: Customer, visit: VisitInput, unit: TimeUnit): CustomerChanges {
  const changes: CustomerChanges = {
    lastVisit: toAccountTime(visit.atMs, unit),
    numVisits: (shown.numVisits ?? 0) + 1,
  };
  const note = visit.note?.trim() ?? '';
  if (note !== '') {
    const line = visitNoteLine(visit.atMs, note);
    changes.notes = shown.notes === '' ? line : `${shown.notes.replace(/\n+$/, '')}\n${line}`;
  }
  if (visit.reminder) {
    changes.remindAt = toAccountTime(visit.reminder.atMs, unit);
    changes.remindType = visit.reminder.type;
  }
  return changes;
}

/** The record as a base: id, writable fields and timestamps (view-only extras dropped). */
export function baseRecordOf(shown: Customer): Customer {
  const out: Record<string, unknown> = {
    id: shown.id,
    createdAt: shown.createdAt,
    updatedAt: shown.updatedAt,
  };
  for (const key of CUSTOMER_WRITABLE_FIELDS) out[key] = shown[key];
  return out as Customer;
}

/**
 * The outbox op of one visit to `shown` (the record as the rep sees it, queued changes applied).
 * A customer not yet on the service (temp id) has no server record: base null.
 */
export function visitOp(
  shown: Customer,
  visit: VisitInput,
  unit: TimeUnit,
  onServer: boolean,
): Extract<NewOp, { kind: 'updateCustomer' }> {
  return {
    kind: 'updateCustomer',
    target: shown.id,
    payload: visitChanges(shown, visit, unit),
    base: onServer ? baseRecordOf(shown) : null,
  };
}

const DAY_MS = 86_400_000;

/** Whole days since the last visit; null when never visited. */
export function daysSinceLastVisit(
  lastVisit: number | null | undefined,
  nowMs: number,
): number | null {
  const at = fromAccountTime(lastVisit);
  return at === null ? null : Math.max(0, Math.floor((nowMs - at) / DAY_MS));
}

/**
 * The one rule of a reminder due, which "Due today" (its count and panel), the "Reminder due"
 * visit filter, the map's "Reminder due" pins and a customer's "due" mark all count by: set, and
 * at or before the end of the rep's local day of `nowMs`, overdue ones included. Two rules (this
 * one, and "its time has come") showed a rep two numbers for one thing.
 */
export function reminderDueBy(nowMs: number): number {
  if (nowMs === lastDue.nowMs) return lastDue.end;
  const day = new Date(nowMs);
  day.setHours(23, 59, 59, 999);
  lastDue = { nowMs, end: day.getTime() };
  return lastDue.end;
}

// The filter and the pins ask once per customer with one `nowMs` per pass: the day's end is
// worked out once per pass, not 100,000 times.
let lastDue = { nowMs: NaN, end: NaN };

/** True when a reminder is set and due today or overdue (reminderDueBy). */
export function isReminderDue(remindAt: number | null | undefined, nowMs: number): boolean {
  const at = fromAccountTime(remindAt);
  return at !== null && at <= reminderDueBy(nowMs);
}

/**
 * True when a reminder is set and its time has come: overdue (the Selection panel's overdue, as
 * "Due today"'s "N overdue" reads it), not a count of reminders due.
 */
export function isReminderOverdue(remindAt: number | null | undefined, nowMs: number): boolean {
  const at = fromAccountTime(remindAt);
  return at !== null && at <= nowMs;
}

/** Buckets of "days since last visit", for filters and map colours. */
export const VISIT_AGE_BUCKETS = [
  { key: 'week', label: 'Visited within 7 days', maxDays: 7 },
  { key: 'month', label: '8-30 days ago', maxDays: 30 },
  { key: 'quarter', label: '31-90 days ago', maxDays: 90 },
  { key: 'older', label: 'Over 90 days ago', maxDays: Infinity },
  { key: 'never', label: 'Never visited', maxDays: null },
] as const;
export type VisitAgeBucket = (typeof VISIT_AGE_BUCKETS)[number]['key'];

/** The bucket of a customer's last visit. */
export function visitAgeBucket(
  lastVisit: number | null | undefined,
  nowMs: number,
): VisitAgeBucket {
  const days = daysSinceLastVisit(lastVisit, nowMs);
  if (days === null) return 'never';
  for (const b of VISIT_AGE_BUCKETS) if (b.maxDays !== null && days <= b.maxDays) return b.key;
  return 'older';
}

/** A visit filter: everything, a bucket, or the customers whose reminder is due. */
export type VisitFilter =
  { kind: 'all' } | { kind: 'age'; bucket: VisitAgeBucket } | { kind: 'due' };

/** The customers that pass a visit filter. */
export function filterByVisit<T extends Pick<Customer, 'lastVisit' | 'remindAt'>>(
  customers: readonly T[],
  filter: VisitFilter,
  nowMs: number,
): T[] {
  if (filter.kind === 'all') return customers.slice();
  if (filter.kind === 'due') return customers.filter((c) => isReminderDue(c.remindAt, nowMs));
  return customers.filter((c) => visitAgeBucket(c.lastVisit, nowMs) === filter.bucket);
}
