// The one rule for the unit of lastVisit and remindAt, which the spec leaves open. Every reader
// and writer (visit dialog, editor, panels, CSV import and export) goes through these.
//
// Reading: a stored value above 1e11 is milliseconds (1e11 s is the year 5138; 1e11 ms is
// 1973), else seconds; 0, null and negatives mean unset. So a value reads right whoever wrote it.
// Writing: always in the account's unit, read from its own data: the median of the non-zero
// lastVisit/remindAt values; an account with none defaults to seconds (as the reference
// service's demo data), so other clients of the account keep reading its values right.
import type { Customer } from './domain';

export type TimeUnit = 'seconds' | 'milliseconds';

/** Stored values above this read as milliseconds. */
const MS_THRESHOLD = 1e11;

/** The account's unit of lastVisit/remindAt, from the median of its non-zero values. */
export function detectTimeUnit(
  customers: Iterable<Pick<Customer, 'lastVisit' | 'remindAt'>>,
): TimeUnit {
  const values: number[] = [];
  for (const c of customers) {
    for (const value of [c.lastVisit, c.remindAt]) {
      if (typeof value === 'number' && Number.isFinite(value) && value > 0) values.push(value);
    }
  }
  if (values.length === 0) return 'seconds';
  values.sort((a, b) => a - b);
  return values[Math.floor(values.length / 2)]! > MS_THRESHOLD ? 'milliseconds' : 'seconds';
}

/** An instant (epoch ms) as the account stores it. */
export function toAccountTime(epochMs: number, unit: TimeUnit): number {
  return unit === 'milliseconds' ? Math.round(epochMs) : Math.floor(epochMs / 1000);
}

/** A stored lastVisit/remindAt as epoch ms (each value read by its size); null when unset. */
export function fromAccountTime(value: number | null | undefined): number | null {
  if (value === null || value === undefined || !Number.isFinite(value) || value <= 0) return null;
  return value > MS_THRESHOLD ? value : value * 1000;
}
