// The list's and map's visit filter: all, a "days since last visit" bucket, or reminders due.
import type { VisitFilter } from '../../../../src-shared/visits';
import { text } from './text';

export const VISIT_FILTER_OPTIONS: Array<[string, string]> = [
  ['all', text.filter.all],
  ['due', text.filter.due],
  ['age:week', text.filter.week],
  ['age:month', text.filter.month],
  ['age:quarter', text.filter.quarter],
  ['age:older', text.filter.older],
  ['age:never', text.filter.never],
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
