// Main's schedule of the open account's reminders: it raises an OS notification when a
// customer's remindAt comes, whether the window is open, minimised or closed to the tray, and
// online or not. Its reminders are the last pulled customers' (kept in reminders.json, so a
// restart in a parking lot still knows them) with the rep's queued changes applied.
//
// What "due" means: a reminder notifies once, when the clock passes it. `checkedAt` is how far
// the schedule has looked, kept with the reminders each time one fires, so after a restart the
// reminders that fell due while the app was closed notify once, and none twice. The first time
// an account is opened, its reminders already past are the "Due today" list's, not a burst.
import { join } from 'node:path';
import * as v from 'valibot';
import type { Customer } from '../../../src-shared/domain';
import type { Acknowledged, Op } from '../../../src-shared/outbox-types';
import {
  reminderOf,
  remindersOf,
  ReminderSchema,
  withQueuedOps,
  type Reminder,
} from '../../../src-shared/reminders';
import { nodeDurableFs, type DurableFs } from '../durable-fs';
import type { Clock } from '../ports';
import type { CustomersWatcher } from '../sync/engine';

/** What the OS shows; `customerId` opens the customer on a click. */
export interface ReminderNotice {
  accountKey: string;
  /** Null for a summary of several reminders: its click opens "Due today". */
  customerId: string | null;
  title: string;
  body: string;
}

/** Shows one notification; `onClick` runs when the rep clicks it. */
export type ShowNotification = (notice: ReminderNotice, onClick: () => void) => void;

/** More due at once than this show as one notification naming how many. */
export const MAX_NOTICES_AT_ONCE = 3;
/** The longest wait between looks: timers are late after a laptop sleeps, and the OS clock moves. */
const LOOK_EVERY_MS = 60_000;

const FileSchema = v.object({ checkedAt: v.number(), reminders: v.array(ReminderSchema) });

export interface ReminderScheduleOptions {
  accountKey: string;
  /** The account's directory; reminders.json lives there. */
  dir: string;
  clock: Clock;
  notify: ShowNotification;
  /** A click on a reminder: the app opens the customer (or "Due today" for null). */
  open: (customerId: string | null) => void;
  fs?: DurableFs;
}

export class ReminderSchedule implements CustomersWatcher {
  readonly #o: ReminderScheduleOptions;
  readonly #fs: DurableFs;
  readonly #file: string;
  #base = new Map<string, Reminder>();
  #ops: readonly Op[] = [];
  #current = new Map<string, Reminder>();
  #checkedAt: number;
  #timer: AbortController | null = null;
  #closed = false;
  #writes: Promise<void> = Promise.resolve();

  private constructor(options: ReminderScheduleOptions, checkedAt: number) {
    this.#o = options;
    this.#fs = options.fs ?? nodeDurableFs;
    this.#file = join(options.dir, 'reminders.json');
    this.#checkedAt = checkedAt;
  }

  static async open(
    options: ReminderScheduleOptions,
    ops: readonly Op[],
  ): Promise<ReminderSchedule> {
    const fs = options.fs ?? nodeDurableFs;
    const raw = await fs.readJson(join(options.dir, 'reminders.json'));
    const kept = v.safeParse(FileSchema, raw);
    const schedule = new ReminderSchedule(
      options,
      kept.success ? kept.output.checkedAt : options.clock.now(),
    );
    if (kept.success) schedule.#base = new Map(kept.output.reminders.map((r) => [r.customerId, r]));
    schedule.#ops = ops;
    schedule.#recompute();
    return schedule;
  }

  /** The reminders as they stand, soonest first. */
  list(): Reminder[] {
    return [...this.#current.values()].sort((a, b) => a.at - b.at);
  }

  /** The account's customers as last pulled (a snapshot, or the kept data after a delta). */
  pulled(customers: readonly Customer[]): void {
    this.#setBase(remindersOf(customers));
  }

  /** What the service acknowledged of one change: its records, without a pull's full pass. */
  acknowledged({ upserted, deleted }: Acknowledged): void {
    // Most acknowledged changes leave every reminder as it was (a bulk colour): then nothing is
    // copied, compared or saved; a copy of the account's reminders per change held main.
    const base = this.#base;
    const reminders = upserted.map((c) => [c.id, reminderOf(c.id, c)] as const);
    const same = (id: string, r: Reminder | null) => {
      const was = base.get(id);
      return r === null ? was === undefined : was !== undefined && sameReminder(was, r);
    };
    if (deleted.every((id) => !base.has(id)) && reminders.every(([id, r]) => same(id, r))) return;
    const next = new Map(base);
    for (const id of deleted) next.delete(id);
    for (const [id, reminder] of reminders) {
      if (reminder) next.set(id, reminder);
      else next.delete(id);
    }
    this.#setBase(next);
  }

  #setBase(next: Map<string, Reminder>): void {
    if (sameReminders(next, this.#base)) return;
    this.#base = next;
    this.#save();
    this.#recompute();
  }

  /** The outbox's queue after a change: the rep's reminders before the service has them. */
  setOps(ops: readonly Op[]): void {
    this.#ops = ops;
    this.#recompute();
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#timer?.abort();
    await this.#writes;
  }

  #recompute(): void {
    this.#current = withQueuedOps(this.#base, this.#ops);
    this.#look();
  }

  /** Notifies what fell due since the last look, then waits for the next one. */
  #look(): void {
    if (this.#closed) return;
    this.#timer?.abort();
    const now = this.#o.clock.now();
    // One pass, and only what fell due sorted: it runs at every change of the queue.
    const due: Reminder[] = [];
    let next = Infinity;
    for (const r of this.#current.values()) {
      if (r.at > this.#checkedAt && r.at <= now) due.push(r);
      if (r.at > now && r.at < next) next = r.at;
    }
    due.sort((a, b) => a.at - b.at);
    if (now > this.#checkedAt) this.#checkedAt = now;
    if (due.length > 0) {
      this.#save();
      this.#notify(due);
    }
    const wait = Number.isFinite(next) ? Math.min(next - now, LOOK_EVERY_MS) : LOOK_EVERY_MS;
    const timer = new AbortController();
    this.#timer = timer;
    this.#o.clock.sleep(Math.max(0, wait), timer.signal).then(
      () => this.#look(),
      () => undefined, // aborted: a newer look took over
    );
  }

  #notify(due: readonly Reminder[]): void {
    const { accountKey } = this.#o;
    if (due.length > MAX_NOTICES_AT_ONCE) {
      const names = due.slice(0, 3).map((r) => r.name || 'a customer');
      this.#o.notify(
        {
          accountKey,
          customerId: null,
          title: `${due.length} reminders due`,
          body: `${names.join(', ')} and ${due.length - names.length} more. Open Due today.`,
        },
        () => this.#o.open(null),
      );
      return;
    }
    for (const r of due) {
      this.#o.notify(
        {
          accountKey,
          customerId: r.customerId,
          title: r.type
            ? `${r.type}: ${r.name || 'a customer'}`
            : `Reminder: ${r.name || 'a customer'}`,
          body: r.address || 'No address',
        },
        () => this.#o.open(r.customerId),
      );
    }
  }

  /** Keeps the base reminders and how far the schedule looked; one write at a time. */
  #save(): void {
    const value = { checkedAt: this.#checkedAt, reminders: [...this.#base.values()] };
    this.#writes = this.#writes
      .then(() => this.#fs.writeJson(this.#file, value))
      .catch((error: unknown) => {
        // A reminder file that cannot be written costs a repeat notice after a restart at most.
        console.warn(`[fieldmap] reminders not kept: ${String(error)}`);
      });
  }
}

function sameReminder(a: Reminder, b: Reminder): boolean {
  return a.at === b.at && a.name === b.name && a.address === b.address && a.type === b.type;
}

function sameReminders(
  a: ReadonlyMap<string, Reminder>,
  b: ReadonlyMap<string, Reminder>,
): boolean {
  if (a.size !== b.size) return false;
  for (const [id, r] of a) {
    const other = b.get(id);
    if (!other || !sameReminder(other, r)) return false;
  }
  return true;
}
