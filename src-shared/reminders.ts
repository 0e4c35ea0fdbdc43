// A customer's reminder (remindAt/remindType) as main's schedule and the "Due today" list read
// it. remindAt reads by the one rule of time-units.ts, so an account storing seconds and one
// storing milliseconds remind at the same instant. Main applies the rep's queued changes over
// the service's records here, so a reminder set offline reminds like any other.
import * as v from 'valibot';
import type { Customer } from './domain';
import type { Op } from './outbox-types';
import { fromAccountTime } from './time-units';

export const ReminderSchema = v.object({
  customerId: v.string(),
  name: v.string(),
  address: v.string(),
  /** Epoch milliseconds. */
  at: v.number(),
  /** The account's remindType, as it stores it ('' when none). */
  type: v.string(),
});
export type Reminder = v.InferOutput<typeof ReminderSchema>;

type ReminderFields = Pick<Customer, 'name' | 'address' | 'city' | 'remindAt' | 'remindType'>;

/** One line of where: "12 High St, Leeds". */
function placeOf(c: Partial<ReminderFields>): string {
  return [c.address, c.city].filter((part) => part && part.trim()).join(', ');
}

/** The customer's reminder, or null when it has none (0, null or unreadable). */
export function reminderOf(id: string, c: Partial<ReminderFields>): Reminder | null {
  const at = fromAccountTime(c.remindAt);
  return at === null ? null : reminderAt(id, c, at);
}

/** The customer's reminder at `at`: its remindAt already read (fromAccountTime). */
export function reminderAt(id: string, c: Partial<ReminderFields>, at: number): Reminder {
  return { customerId: id, name: c.name ?? '', address: placeOf(c), at, type: c.remindType ?? '' };
}

/** Every reminder among `customers`. */
export function remindersOf(customers: Iterable<Customer>): Map<string, Reminder> {
  const out = new Map<string, Reminder>();
  for (const c of customers) {
    const reminder = reminderOf(c.id, c);
    if (reminder) out.set(c.id, reminder);
  }
  return out;
}

/**
 * The reminders once the queued ops are applied, in queue order: a create or an edit that sets
 * remindAt adds or moves one, an edit that clears it or a delete removes it. An edit of a
 * customer without a reminder takes its name and address from the record the rep edited.
 */
export function withQueuedOps(
  base: ReadonlyMap<string, Reminder>,
  ops: readonly Op[],
): Map<string, Reminder> {
  const out = new Map(base);
  // Fields each customer has after the ops so far, for edits that touch only some of them.
  const fields = new Map<string, Partial<ReminderFields>>();
  for (const op of ops) {
    if (op.kind === 'createCustomer') {
      fields.set(op.target, op.payload);
    } else if (op.kind === 'updateCustomer') {
      const known = out.get(op.target);
      const before: Partial<ReminderFields> = fields.get(op.target) ??
        op.base ?? {
          name: known?.name ?? '',
          address: known?.address ?? '',
          remindType: known?.type ?? '',
          remindAt: known ? known.at : null,
        };
      fields.set(op.target, { ...before, ...op.payload });
    } else if (op.kind === 'deleteCustomer') {
      fields.delete(op.target);
      out.delete(op.target);
      continue;
    } else continue;
    const reminder = reminderOf(op.target, fields.get(op.target)!);
    if (reminder) out.set(op.target, reminder);
    else out.delete(op.target);
  }
  return out;
}
