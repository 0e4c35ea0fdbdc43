// Snooze and Done: each is an edit of remindAt through the outbox like any other, written in
// the account's own unit (time-units.ts), so it reaches the service and other devices.
import { toAccountTime, type TimeUnit } from '../../../../src-shared/time-units';
import type { ChangeWriter } from '../editor/change-writer';
import { snoozedUntil, type SnoozeChoice } from './due-today';

export class ReminderActions {
  constructor(
    private readonly writer: Pick<ChangeWriter, 'updateCustomer'>,
    private readonly unit: () => TimeUnit,
    private readonly now: () => number = Date.now,
  ) {}

  snooze(customerId: string, choice: SnoozeChoice): Promise<void> {
    const at = snoozedUntil(choice, this.now());
    return this.writer.updateCustomer(customerId, { remindAt: toAccountTime(at, this.unit()) });
  }

  /** Clears the reminder (0 is the service's "none"); its type stays with the customer. */
  done(customerId: string): Promise<void> {
    return this.writer.updateCustomer(customerId, { remindAt: 0 });
  }
}
