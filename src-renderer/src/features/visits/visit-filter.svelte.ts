// The list's and map's visit filter: all, a "days since last visit" bucket, or reminders due.
import type { VisitFilter } from '../../../../src-shared/visits';

export const VISIT_FILTER_OPTIONS: Array<[string, string]> = [
  ['all', 'Any visit date'],
  ['due', 'Reminder due'],
  ['age:week', 'Visited within 7 days'],
  ['age:month', 'Visited 8-30 days ago'],
  ['age:quarter', 'Visited 31-90 days ago'],
  ['age:older', 'Visited over 90 days ago'],
  ['age:never', 'Never visited'],
];

export class VisitFilterState {
  value = $state('all');
  /** "Now" for the filter, refreshed when the filter is changed (days are coarse). */
  #now = $state(Date.now());
  #onSet: () => void;

  /** `onSet` runs on each change the rep makes (set). */
  constructor(onSet: () => void = () => undefined) {
    this.#onSet = onSet;
  }

  get now(): number {
    return this.#now;
  }

  get filter(): VisitFilter {
    if (this.value === 'due') return { kind: 'due' };
    if (this.value.startsWith('age:')) {
      return {
        kind: 'age',
        bucket: this.value.slice(4) as Extract<VisitFilter, { kind: 'age' }>['bucket'],
      };
    }
    return { kind: 'all' };
  }

  get active(): boolean {
    return this.value !== 'all';
  }

  set(value: string): void {
    this.value = value;
    this.#now = Date.now();
    this.#onSet();
  }
}
