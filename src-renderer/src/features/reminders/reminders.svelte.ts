// The reminders as the page shows them: "Due today" read once from the cache for the top bar
// and the panel, a clock that moves it on by itself, every half minute and at the moment the
// next reminder falls due (so "overdue" is never late), and Snooze and Done for the panels.
import type { Reminder } from '../../../../src-shared/reminders';
import type { TimeUnit } from '../../../../src-shared/time-units';
import type { CustomerView } from '../../types';
import type { ChangeWriter } from '../editor/change-writer';
import { DueList, type ChangedSince, type SnoozeChoice } from './due-today';
import { ReminderActions } from './reminder-actions';

const TICK_MS = 30_000;

export class Reminders {
  /** The time "Due today" is read at; moves every half minute. */
  now = $state(Date.now());
  // Before `due`, which reads it; the constructor sets the account's.
  #customers: () => readonly CustomerView[] = () => [];
  #list: DueList = new DueList(() => null);
  /** Reminders due by the end of today, soonest first: each change reads only what it changed. */
  readonly due: Reminder[] = $derived(this.#list.read(this.#customers(), this.now));
  /** When the next of today's reminders falls due (the count and "overdue" change then). */
  readonly nextDue: number | null = $derived(this.due.find((r) => r.at > this.now)?.at ?? null);
  /** Local midnight of `now`: rows say "today" or a day from it. */
  readonly startOfToday: number = $derived(new Date(this.now).setHours(0, 0, 0, 0));
  readonly #actions: ReminderActions;

  constructor(
    writer: Pick<ChangeWriter, 'updateCustomer'>,
    unit: () => TimeUnit,
    customers: () => readonly CustomerView[],
    changedSince: ChangedSince = () => null,
  ) {
    this.#actions = new ReminderActions(writer, unit);
    this.#customers = customers;
    this.#list = new DueList(changedSince);
  }

  /** Starts the clock; returns its stop. */
  start(): () => void {
    const timer = setInterval(() => (this.now = Date.now()), TICK_MS);
    return () => clearInterval(timer);
  }

  /** Moves the clock on at `at` too (the next reminder of the day falls due then); returns its cancel. */
  wakeAt(at: number): () => void {
    const timer = setTimeout(() => (this.now = Date.now()), Math.max(0, at - Date.now()) + 50);
    return () => clearTimeout(timer);
  }

  snooze = (customerId: string, choice: SnoozeChoice): Promise<void> =>
    this.#actions.snooze(customerId, choice).then(() => void (this.now = Date.now()));

  done = (customerId: string): Promise<void> =>
    this.#actions.done(customerId).then(() => void (this.now = Date.now()));
}
