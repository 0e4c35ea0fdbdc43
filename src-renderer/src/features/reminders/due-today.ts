// "Due today": the reminders due by the end of the rep's day, overdue first, and where a
// snooze moves one. Read from the cache, so a reminder the rep just set, snoozed or marked done
// shows as it stands before the service has it.
import { reminderAt, type Reminder } from '../../../../src-shared/reminders';
import { fromAccountTime } from '../../../../src-shared/time-units';
import { reminderDueBy } from '../../../../src-shared/visits';
import { lowerBoundById } from '../../cache/id-order';
import type { CustomerView } from '../../types';

/**
 * `c`'s reminder when it is due by `end` (reminderDueBy: the rule the "Reminder due" filter and
 * pins count by), else null. remindAt is read once: the time first, and a reminder (its address
 * line) built only for the due ones, not for every customer at a first read of the account.
 */
function dueReminder(c: CustomerView, end: number): Reminder | null {
  const at = fromAccountTime(c.remindAt);
  return at === null || at > end ? null : reminderAt(c.id, c, at);
}

/** Reminders due by the end of today (overdue included), soonest first. */
export function dueToday(customers: readonly CustomerView[], now: number): Reminder[] {
  const end = reminderDueBy(now);
  const due: Reminder[] = [];
  for (const c of customers) {
    const reminder = dueReminder(c, end);
    if (reminder) due.push(reminder);
  }
  return due.sort(dueOrder);
}

/** Soonest first; at the same time by name, then by id (so a patched list is the full one). */
function dueOrder(a: Reminder, b: Reminder): number {
  const byId = a.customerId < b.customerId ? -1 : a.customerId > b.customerId ? 1 : 0;
  return a.at - b.at || a.name.localeCompare(b.name) || byId;
}

/** The ids that may differ from `base` to `rows` (CustomerFeed.changedSince); null: unknown. */
export type ChangedSince = (
  base: readonly CustomerView[],
  rows: readonly CustomerView[],
) => ReadonlySet<string> | null;

/**
 * dueToday kept from one data version to the next: only the customers the feed says changed are
 * read again. While a bulk change drains, every acknowledged change is a new data version, and a
 * pass over 100k customers per version was the page's largest share of its long tasks.
 */
export class DueList {
  #rows: readonly CustomerView[] | null = null;
  #end = Number.NaN;
  #due: Reminder[] = [];

  constructor(private readonly changedSince: ChangedSince) {}

  /** dueToday(rows, now), from the last answer when `rows` was patched from its rows. */
  read(rows: readonly CustomerView[], now: number): Reminder[] {
    const end = reminderDueBy(now);
    const changed = this.#rows && end === this.#end ? this.changedSince(this.#rows, rows) : null;
    if (changed === null) this.#due = dueToday(rows, now);
    else if (changed.size > 0) this.#due = this.#patched(rows, changed, end);
    this.#rows = rows;
    this.#end = end;
    return this.#due;
  }

  #patched(rows: readonly CustomerView[], changed: ReadonlySet<string>, end: number): Reminder[] {
    const due = this.#due.filter((r) => !changed.has(r.customerId));
    for (const id of changed) {
      const c = rows[lowerBoundById(rows, id)];
      const reminder = c?.id === id ? dueReminder(c, end) : null;
      if (!reminder) continue;
      let lo = 0;
      let hi = due.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (dueOrder(due[mid]!, reminder) <= 0) lo = mid + 1;
        else hi = mid;
      }
      due.splice(lo, 0, reminder);
    }
    return due;
  }
}

export type SnoozeChoice = 'hour' | 'tomorrow' | 'week';
export const SNOOZE_CHOICES: readonly SnoozeChoice[] = ['hour', 'tomorrow', 'week'];

/** When a snooze moves the reminder: an hour on, or 09:00 tomorrow, or 09:00 in a week. */
export function snoozedUntil(choice: SnoozeChoice, now: number): number {
  if (choice === 'hour') return now + 60 * 60_000;
  const day = new Date(now);
  day.setDate(day.getDate() + (choice === 'tomorrow' ? 1 : 7));
  day.setHours(9, 0, 0, 0);
  return day.getTime();
}
