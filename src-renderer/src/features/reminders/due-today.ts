// "Due today": the reminders due by the end of the rep's day, overdue first, and where a
// snooze moves one. Read from the cache, so a reminder the rep just set, snoozed or marked done
// shows as it stands before the service has it.
import { reminderOf, type Reminder } from '../../../../src-shared/reminders';
import type { CustomerView } from '../../types';

/** The last millisecond of the local day of `now`. */
export function endOfDay(now: number): number {
  const day = new Date(now);
  day.setHours(23, 59, 59, 999);
  return day.getTime();
}

/** Reminders due by the end of today (overdue included), soonest first. */
export function dueToday(customers: readonly CustomerView[], now: number): Reminder[] {
  const end = endOfDay(now);
  const due: Reminder[] = [];
  for (const c of customers) {
    if (!c.remindAt) continue;
    const reminder = reminderOf(c.id, c);
    if (reminder && reminder.at <= end) due.push(reminder);
  }
  return due.sort((a, b) => a.at - b.at || a.name.localeCompare(b.name));
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
