// How values read in the panels. lastVisit/remindAt read by the one rule of time-units.ts.
import { timestampToEpochMs, type Timestamp } from '../../../src-shared';
import { fromAccountTime } from '../../../src-shared/time-units';

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const dateTimeFormat = new Intl.DateTimeFormat(undefined, {
  dateStyle: 'medium',
  timeStyle: 'short',
});

/** A lastVisit/remindAt value as a date, or '—' when unset. */
export function formatVisitDate(value: number | null | undefined, withTime = false): string {
  const ms = fromAccountTime(value);
  if (ms === null) return '—';
  return (withTime ? dateTimeFormat : dateFormat).format(new Date(ms));
}

/** A createdAt/updatedAt timestamp object as a local date and time. */
export function formatTimestamp(ts: Timestamp | undefined): string {
  if (!ts) return '—';
  const ms = timestampToEpochMs(ts);
  return Number.isNaN(ms) ? `${ts.date} ${ts.timezone}` : dateTimeFormat.format(new Date(ms));
}

const amountFormat = new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 });

/** dealAmount: a number, a numeric string, another string (shown as is) or null. */
export function formatDealAmount(value: number | string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '—';
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) ? amountFormat.format(n) : String(value);
}

/** An epoch-milliseconds instant as a local date and time. */
export function formatTimestampMs(ms: number): string {
  return dateTimeFormat.format(new Date(ms));
}
