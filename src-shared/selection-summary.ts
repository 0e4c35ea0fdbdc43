// What a lasso or box selection holds, as the Selection panel sums it up (issue 15): how many,
// by colour and by group, the sum of deal amounts and how many are overdue for a visit.
//
// dealAmount is untyped in the spec: the PHP service sends numbers, numeric strings ("1250.50",
// "1,250.00", " 300 ") or text. What reads as a number is summed; the rest is counted as having
// no amount (null or empty) or an unreadable one, so the sum never hides what it left out.
import type { Customer } from './domain';
import { daysSinceLastVisit, isReminderOverdue } from './visits';

/** Days after the last visit from which a customer is overdue (past the "8-30 days" bucket). */
export const OVERDUE_AFTER_DAYS = 30;

const AMOUNT_RE = /^[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?$|^[-+]?\.\d+$/;

/** A deal amount as a number, null when it has none, NaN when it does not read as one. */
export function readDealAmount(value: unknown): number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return Number.isFinite(value) ? value : Number.NaN;
  if (typeof value !== 'string') return Number.NaN;
  const text = value.trim().replace(/^[$€£]\s*/, '');
  if (text === '') return null;
  return AMOUNT_RE.test(text) ? Number(text.replaceAll(',', '')) : Number.NaN;
}

/**
 * Overdue for a visit: a reminder whose time has come, or a last visit more than
 * OVERDUE_AFTER_DAYS days ago (the visit-age buckets "31-90 days" and "over 90 days").
 * A customer never visited and with no reminder is not overdue (counted apart).
 */
export function isOverdueForVisit(
  c: Pick<Customer, 'lastVisit' | 'remindAt'>,
  nowMs: number,
): boolean {
  if (isReminderOverdue(c.remindAt, nowMs)) return true;
  const days = daysSinceLastVisit(c.lastVisit, nowMs);
  return days !== null && days > OVERDUE_AFTER_DAYS;
}

export interface SelectionSummary {
  count: number;
  /** [colour, customers], most first (ties by name). */
  byColor: Array<[string, number]>;
  /** [group, customers], most first; a customer in two groups counts in both. */
  byGroup: Array<[string, number]>;
  /** Customers in no group. */
  noGroup: number;
  deal: { sum: number; counted: number; none: number; unreadable: number };
  overdue: number;
  neverVisited: number;
}

function ranked(counts: Map<string, number>): Array<[string, number]> {
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

type Summed = Pick<Customer, 'color' | 'groups' | 'dealAmount' | 'lastVisit' | 'remindAt'>;

export function summarizeSelection(customers: readonly Summed[], nowMs: number): SelectionSummary {
  const colors = new Map<string, number>();
  const groups = new Map<string, number>();
  const deal = { sum: 0, counted: 0, none: 0, unreadable: 0 };
  let noGroup = 0;
  let overdue = 0;
  let neverVisited = 0;
  for (const c of customers) {
    colors.set(c.color, (colors.get(c.color) ?? 0) + 1);
    if (c.groups.length === 0) noGroup += 1;
    for (const g of new Set(c.groups)) groups.set(g, (groups.get(g) ?? 0) + 1);
    const amount = readDealAmount(c.dealAmount);
    if (amount === null) deal.none += 1;
    else if (Number.isNaN(amount)) deal.unreadable += 1;
    else {
      deal.sum += amount;
      deal.counted += 1;
    }
    if (isOverdueForVisit(c, nowMs)) overdue += 1;
    else if (daysSinceLastVisit(c.lastVisit, nowMs) === null) neverVisited += 1;
  }
  // Cents: a sum of many decimal amounts must not show binary-float noise.
  deal.sum = Math.round(deal.sum * 100) / 100;
  return {
    count: customers.length,
    byColor: ranked(colors),
    byGroup: ranked(groups),
    noGroup,
    deal,
    overdue,
    neverVisited,
  };
}
