// Plan the week as the rep works it: the form (kept per account in the cache's meta table, home
// and office included), one planning run at a time in a worker with a cancel, the result (the
// optimised plan and the greedy one before it), the rep's edits (a stop to another day, up or
// down in a day: that day is rescheduled and flagged when it no longer fits), and saving each day
// as a route through the ChangeWriter, once.
import { toFieldmapError } from '../../../../src-shared';
import {
  PlanInputError,
  type WeekPlan,
  type WeekPlanInput,
} from '../../../../src-shared/week-plan';
import type { CustomerCache } from '../../cache/customer-cache';
import type { CustomerView } from '../../types';
import type { ChangeWriter } from '../editor/change-writer';
import { scheduleDay, type DaySchedule } from './week-plan-days';
import {
  dayLabel,
  defaultSettings,
  DEFAULT_HOURS,
  fieldOfMessage,
  planDates,
  readForm,
  type FieldErrors,
  type LeftReason,
  type PlanSettings,
} from './week-plan-form';
import { PlanCancelled, planWeekOffThread, type PlanPort } from './week-plan-run';
import { text } from './text';
import { distanceUnits } from '../../ui/units.svelte';

const META_KEY = 'week-plan';

export interface PlanOutcome {
  input: WeekPlanInput;
  optimised: WeekPlan;
  baseline: WeekPlan;
  labels: string[];
  /** The first day the plan was made for (YYYY-MM-DD), whatever the form says since. */
  firstDay: string;
  /** Stops the form kept from the planner (no position, unreadable window). */
  formLeft: Array<{ id: string; reason: LeftReason; detail?: string }>;
}

export type Leftover = { id: string; reason: LeftReason; detail?: string };

export class WeekPlanState {
  settings = $state<PlanSettings>(defaultSettings(new Date()));
  #errors = $state.raw<FieldErrors>({});
  #running = $state(false);
  #outcome = $state.raw<PlanOutcome | null>(null);
  /** The plan's days as the rep edited them: customer ids per day. */
  #routes = $state.raw<string[][]>([]);
  names = $state<string[]>([]);
  /** Day index -> the route name it was saved under. */
  #saved = $state.raw<ReadonlyMap<number, string>>(new Map());
  #saving = $state(false);
  #saveFailure = $state<string | null>(null);
  #abort: AbortController | null = null;
  #loaded: Promise<void>;

  constructor(private readonly cache: CustomerCache) {
    this.#loaded = cache.db.meta
      .get(META_KEY)
      .then((row) => {
        const stored = row?.value as Partial<PlanSettings> | undefined;
        if (stored && typeof stored === 'object' && Array.isArray(stored.hours))
          this.settings = { ...this.settings, ...stored, firstDay: this.settings.firstDay };
      })
      .catch(() => undefined);
  }

  loaded(): Promise<void> {
    return this.#loaded;
  }

  get errors(): FieldErrors {
    return this.#errors;
  }

  get running(): boolean {
    return this.#running;
  }

  get outcome(): PlanOutcome | null {
    return this.#outcome;
  }

  get routes(): readonly string[][] {
    return this.#routes;
  }

  get saving(): boolean {
    return this.#saving;
  }

  get saveFailure(): string | null {
    return this.#saveFailure;
  }

  savedAs(day: number): string | undefined {
    return this.#saved.get(day);
  }

  /** True once every day with visits is saved. */
  get allSaved(): boolean {
    return this.#routes.every((ids, d) => ids.length === 0 || this.#saved.has(d));
  }

  /** Sets the number of days: rows are added with the default hours or dropped from the end. */
  setDayCount(count: number): void {
    if (!Number.isInteger(count) || count < 1 || count > 31) return;
    const hours = this.settings.hours.slice(0, count);
    while (hours.length < count) hours.push({ ...(hours.at(-1) ?? DEFAULT_HOURS) });
    this.settings.hours = hours;
  }

  /** Plans `stops` in the worker; messages per input when the form or the planner refuses. */
  async plan(
    stops: readonly CustomerView[],
    everyone: readonly CustomerView[],
    labels: readonly string[],
    isToday: (id: string) => boolean,
  ): Promise<void> {
    if (this.#running) return;
    const settings = $state.snapshot(this.settings) as PlanSettings;
    void this.cache.db.meta.put({ key: META_KEY, value: settings }).catch(() => undefined);
    let form: ReturnType<typeof readForm>;
    try {
      form = readForm(settings, stops, everyone, labels, isToday, distanceUnits.unit);
    } catch (error) {
      this.#errors = { general: text.state.formUnread(String(error)) };
      return;
    }
    this.#errors = form.errors;
    if (!form.input) return;
    const input = form.input;
    const abort = new AbortController();
    this.#abort = abort;
    this.#running = true;
    const worker = new Worker(new URL('./week-plan.worker.ts', import.meta.url), {
      type: 'module',
    });
    let broken: string | null = null;
    worker.addEventListener('error', (event) => {
      broken = event.message || text.state.notStarted;
      abort.abort();
    });
    try {
      const result = await planWeekOffThread(input, worker as unknown as PlanPort, abort.signal);
      const dates = planDates(settings.firstDay, input.days.length);
      this.#outcome = {
        input,
        optimised: result.plan,
        baseline: result.baseline,
        labels: dates.map(dayLabel),
        firstDay: settings.firstDay,
        formLeft: form.left,
      };
      this.#routes = result.plan.days.map((day) => day.visits.map((v) => v.id));
      this.names = dates.map((date) => text.state.dayRoute(dayLabel(date)));
      this.#saved = new Map();
      this.#saveFailure = null;
      if (result.plan.days.every((day) => day.visits.length === 0))
        this.#errors = {
          ...this.#errors,
          fit: text.state.noFit,
        };
    } catch (error) {
      if (broken !== null)
        this.#errors = { ...this.#errors, general: text.state.brokenPlanner(broken) };
      else if (error instanceof PlanInputError)
        this.#errors = { ...this.#errors, [fieldOfMessage(error.message)]: error.message };
      else if (!(error instanceof PlanCancelled))
        this.#errors = { ...this.#errors, general: text.state.failed(String(error)) };
    } finally {
      worker.terminate();
      this.#abort = null;
      this.#running = false;
    }
  }

  cancel(): void {
    this.#abort?.abort();
  }

  /** The schedule of every day as the rep edited it. */
  schedules(nameOf: (id: string) => string): DaySchedule[] {
    const outcome = this.#outcome;
    if (!outcome) return [];
    return this.#routes.map((ids, d) => scheduleDay(outcome.input, d, ids, nameOf));
  }

  /** Stops in no day: the form's, then the planner's (less those the rep put in a day). */
  leftovers(): Leftover[] {
    const outcome = this.#outcome;
    if (!outcome) return [];
    const inDay = new Set(this.#routes.flat());
    return [...outcome.formLeft, ...outcome.optimised.leftover.filter((l) => !inDay.has(l.id))];
  }

  /** Whether a day can still be edited (a saved day is a route now). */
  editable(day: number): boolean {
    return !this.#saved.has(day) && !this.#saving;
  }

  /** Moves a stop to the end of day `to` (from a day, or from the left-over stops). */
  moveToDay(id: string, to: number): void {
    if (!this.editable(to) || to < 0 || to >= this.#routes.length) return;
    const from = this.#routes.findIndex((ids) => ids.includes(id));
    if (from === to || (from >= 0 && !this.editable(from))) return;
    if (from < 0 && !this.#outcome?.optimised.leftover.some((l) => l.id === id)) return;
    this.#routes = this.#routes.map((ids, d) =>
      d === to ? [...ids.filter((x) => x !== id), id] : ids.filter((x) => x !== id),
    );
  }

  /** Takes a stop out of its day (it joins the left-over stops). */
  leaveOut(id: string): void {
    const from = this.#routes.findIndex((ids) => ids.includes(id));
    if (from < 0 || !this.editable(from)) return;
    this.#routes = this.#routes.map((ids) => ids.filter((x) => x !== id));
  }

  /** Moves the stop at `index` of day `day` by `delta` places. */
  moveWithin(day: number, index: number, delta: number): void {
    const ids = this.#routes[day];
    const to = index + delta;
    if (!ids || !this.editable(day) || to < 0 || to >= ids.length) return;
    const next = [...ids];
    const [id] = next.splice(index, 1);
    next.splice(to, 0, id!);
    this.#routes = this.#routes.map((r, d) => (d === day ? next : r));
  }

  /**
   * A created customer got its server id ('ids:resolved'): the days, the plan shown and its
   * left-over stops follow, so a day saved afterwards names the id the service knows.
   */
  rename(tempId: string, id: string): void {
    const swap = <T extends { id: string }>(x: T): T => (x.id === tempId ? { ...x, id } : x);
    if (this.#routes.some((ids) => ids.includes(tempId)))
      this.#routes = this.#routes.map((ids) => ids.map((x) => (x === tempId ? id : x)));
    const outcome = this.#outcome;
    if (!outcome?.input.stops.some((stop) => stop.id === tempId)) return;
    const plan = (p: WeekPlan): WeekPlan => ({
      ...p,
      days: p.days.map((day) => ({ ...day, visits: day.visits.map(swap) })),
      leftover: p.leftover.map(swap),
    });
    this.#outcome = {
      ...outcome,
      input: { ...outcome.input, stops: outcome.input.stops.map(swap) },
      optimised: plan(outcome.optimised),
      baseline: plan(outcome.baseline),
      formLeft: outcome.formLeft.map(swap),
    };
  }

  /** Queues one route per day with visits, each once; saved days stay saved. */
  async saveDays(writer: ChangeWriter): Promise<void> {
    if (this.#saving) return;
    this.#saving = true;
    this.#saveFailure = null;
    try {
      for (const [d, ids] of this.#routes.entries()) {
        if (ids.length === 0 || this.#saved.has(d)) continue;
        const name = (this.names[d] ?? '').trim() || text.state.numberedDayRoute(d + 1);
        await writer.createRoute(name, [...ids]);
        this.#saved = new Map([...this.#saved, [d, name]]);
      }
    } catch (error) {
      this.#saveFailure = text.state.notAllSaved(toFieldmapError(error).message);
    } finally {
      this.#saving = false;
    }
  }
}

const states = new WeakMap<CustomerCache, WeekPlanState>();

/** The account's week plan (one per open account; it goes with the account's cache). */
export function weekPlanOf(cache: CustomerCache): WeekPlanState {
  let state = states.get(cache);
  if (!state) {
    state = new WeekPlanState(cache);
    states.set(cache, state);
  }
  return state;
}
