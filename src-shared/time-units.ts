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

/**
 * The side of the milliseconds threshold of each set lastVisit/remindAt of a customer: 'large'
 * (milliseconds) or 'small' (seconds). The page counts these per data version (KeyCounts).
 */
export function storedTimeSides(
  c: Pick<Customer, 'lastVisit' | 'remindAt'>,
): Array<'small' | 'large'> {
  const sides: Array<'small' | 'large'> = [];
  for (const value of [c.lastVisit, c.remindAt])
    if (typeof value === 'number' && Number.isFinite(value) && value > 0)
      sides.push(value > MS_THRESHOLD ? 'large' : 'small');
  return sides;
}

/**
 * The account's unit from how many set values are on each side: the median's side. With the
 * values sorted, the one at index floor(n/2) is above the threshold when at most that many are
 * not.
 */
export function unitOfSides(small: number, large: number): TimeUnit {
  const n = small + large;
  if (n === 0) return 'seconds';
  return small <= Math.floor(n / 2) ? 'milliseconds' : 'seconds';
}

/** The account's unit of lastVisit/remindAt, from the median of its non-zero values. */
export function detectTimeUnit(
  customers: Iterable<Pick<Customer, 'lastVisit' | 'remindAt'>>,
): TimeUnit {
  let small = 0;
  let large = 0;
  for (const c of customers)
    for (const side of storedTimeSides(c))
      if (side === 'large') large++;
      else small++;
  return unitOfSides(small, large);
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
