// The reminders as the page shows them: a clock that moves "Due today" on by itself, every half
// minute and at the moment the next reminder falls due (so "overdue" is never late), and Snooze
// and Done for the panels.
import type { TimeUnit } from '../../../../src-shared/time-units';
import type { ChangeWriter } from '../editor/change-writer';
import type { SnoozeChoice } from './due-today';
import { ReminderActions } from './reminder-actions';

const TICK_MS = 30_000;

export class Reminders {
  /** The time "Due today" is read at; moves every half minute. */
  now = $state(Date.now());
  readonly #actions: ReminderActions;

  constructor(writer: Pick<ChangeWriter, 'updateCustomer'>, unit: () => TimeUnit) {
    this.#actions = new ReminderActions(writer, unit);
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
