// The one place numbers, amounts, dates, times, durations and distances become text. Everything
// is written in the rep's locale (the system's, as the browser reports it) and distances in the
// unit the rep chose (units.svelte.ts), so one customer never reads two ways in two panels.
// lastVisit/remindAt read by the one rule of time-units.ts.
import { timestampToEpochMs, type Timestamp } from '../../../src-shared';
import { fromAccountTime } from '../../../src-shared/time-units';
import { distanceUnits, type DistanceUnit } from './units.svelte';

const METERS_PER_MILE = 1609.344;
const KM2_PER_MI2 = 2.589988110336;
const MB = 1024 * 1024;

/** `make`'s value, made at the first call and kept. */
function madeOnUse<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}

export class Formatter {
  // Each Intl object is made on its first use: nine of them made at the page's start were a
  // share of the bundle's evaluation, and most are first needed later (a panel, a dialog).
  readonly #number: () => Intl.NumberFormat;
  readonly #amount: () => Intl.NumberFormat;
  readonly #date: () => Intl.DateTimeFormat;
  readonly #dateTime: () => Intl.DateTimeFormat;
  readonly #time: () => Intl.DateTimeFormat;
  readonly #day: () => Intl.DateTimeFormat;
  readonly #weekday: () => Intl.DateTimeFormat;
  readonly #utcDate: () => Intl.DateTimeFormat;
  readonly #plural: () => Intl.PluralRules;

  constructor(
    readonly locale: string | undefined,
    private readonly unit: () => DistanceUnit,
    timeZone?: string,
  ) {
    const zone = timeZone ? { timeZone } : {};
    const dates = (options: Intl.DateTimeFormatOptions) =>
      madeOnUse(() => new Intl.DateTimeFormat(locale, options));
    this.#number = madeOnUse(() => new Intl.NumberFormat(locale));
    this.#amount = madeOnUse(() => new Intl.NumberFormat(locale, { maximumFractionDigits: 2 }));
    this.#date = dates({ dateStyle: 'medium', ...zone });
    this.#dateTime = dates({ dateStyle: 'medium', timeStyle: 'short', ...zone });
    this.#time = dates({ timeStyle: 'short', ...zone });
    this.#day = dates({ day: 'numeric', month: 'short', ...zone });
    this.#weekday = dates({ weekday: 'short', ...zone });
    this.#utcDate = dates({ dateStyle: 'medium', timeZone: 'UTC' });
    this.#plural = madeOnUse(() => new Intl.PluralRules(locale));
  }

  /** The unit distances are written in now. */
  get distanceUnit(): DistanceUnit {
    return this.unit();
  }

  /** A count: "12,345" ("12 345", "12.345" elsewhere). */
  count(n: number): string {
    return this.#number().format(n);
  }

  /** A number with exactly `digits` decimals. */
  fixed(n: number, digits: number): string {
    return n.toLocaleString(this.locale, {
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    });
  }

  /** `one` or `other` as the locale's plural rules pick for `n`. */
  plural(n: number, one: string, other: string): string {
    return this.#plural().select(n) === 'one' ? one : other;
  }

  /** "1 customer", "3,400 customers". */
  counted(n: number, one: string, other: string): string {
    return `${this.count(n)} ${this.plural(n, one, other)}`;
  }

  /** dealAmount: a number, a numeric string, another string (shown as is) or null. */
  amount(value: number | string | null | undefined): string {
    if (value === null || value === undefined || value === '') return '—';
    const n = typeof value === 'number' ? value : Number(value);
    return Number.isFinite(n) ? this.#amount().format(n) : String(value);
  }

  /** An instant (epoch ms) as a date. */
  date(ms: number): string {
    return this.#date().format(new Date(ms));
  }

  /** A calendar date stored as UTC midnight (a map's data date), whatever the zone. */
  utcDate(ms: number): string {
    return this.#utcDate().format(new Date(ms));
  }

  /** An instant (epoch ms) as a date and time. */
  dateTime(ms: number): string {
    return this.#dateTime().format(new Date(ms));
  }

  /** An instant (epoch ms) as a time of day. */
  time(ms: number): string {
    return this.#time().format(new Date(ms));
  }

  /** A day as a planner heads it: "Mon 23 Nov" (in the locale's order). */
  dayLabel(ms: number): string {
    return `${this.#weekday().format(new Date(ms))} ${this.#day().format(new Date(ms))}`;
  }

  /** Minutes of a day as a 24-hour clock "09:05", the form the planner's fields read back. */
  clock(minutes: number): string {
    const m = Math.round(minutes);
    return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
  }

  /** A duration: "45 min", "6 h 05 min". */
  duration(minutes: number): string {
    const m = Math.round(minutes);
    const h = Math.floor(m / 60);
    return h > 0 ? `${h} h ${String(m % 60).padStart(2, '0')} min` : `${m} min`;
  }

  /**
   * A time to wait: seconds under 90 s, then minutes with seconds to the nearest 10 under 10 min,
   * then minutes, then hours. Whole minutes alone from 60 s on were up to a third off ("2 min" for
   * 90 s), and every "time left" must be within 20%.
   */
  wait(seconds: number): string {
    const s = Math.max(1, Math.round(seconds));
    if (s < 90) return `${this.count(s)} s`;
    if (s >= 3600) return `${this.fixed(s / 3600, 1)} h`;
    if (s >= 600) return `${this.count(Math.round(s / 60))} min`;
    const tens = Math.round(s / 10) * 10;
    const min = Math.floor(tens / 60);
    return tens % 60 === 0 ? `${this.count(min)} min` : `${this.count(min)} min ${tens % 60} s`;
  }

  /** "about 1 min 30 s left"; empty while nothing is known yet. */
  timeLeft(seconds: number | null): string {
    return seconds === null ? '' : `about ${this.wait(seconds)} left`;
  }

  /** Metres in the rep's unit: "0.35 km", "4.2 km", "37 km" or "0.22 mi", "2.6 mi", "23 mi". */
  distance(meters: number): string {
    const unit = this.unit();
    const value = unit === 'mi' ? meters / METERS_PER_MILE : meters / 1000;
    const digits = value < 1 ? 2 : value < 10 ? 1 : 0;
    return `${this.fixed(value, digits)} ${unit}`;
  }

  /** A length given in the rep's unit as that many metres (a radius typed or picked). */
  toMeters(value: number): number {
    return this.unit() === 'mi' ? value * METERS_PER_MILE : value * 1000;
  }

  /** An area given in km², in the rep's unit: "about 38,700 km²", "about 14,900 mi²". */
  area(km2: number): string {
    const unit = this.unit();
    const value = unit === 'mi' ? km2 / KM2_PER_MI2 : km2;
    const rounded = value >= 1000 ? Math.round(value / 100) * 100 : Math.round(value);
    return `about ${this.count(rounded)} ${unit}²`;
  }

  /** Bytes as "0.05 MB", "3.4 MB", "180 MB". */
  megabytes(bytes: number): string {
    const mb = bytes / MB;
    if (mb >= 10) return `${this.count(Math.round(mb))} MB`;
    return `${this.fixed(mb, mb < 0.1 ? 2 : 1)} MB`; // a small region still reads as more than nothing
  }

  /** Storage use: KB below one MB (a few cached tiles), else MB. */
  storage(bytes: number): string {
    return bytes < MB ? `${this.count(Math.ceil(bytes / 1024))} KB` : this.megabytes(bytes);
  }
}

/** The app's formatter: the system locale, the rep's unit. */
export const format = new Formatter(undefined, () => distanceUnits.unit);

/** A lastVisit/remindAt value as a date, or '—' when unset. */
export function formatVisitDate(value: number | null | undefined, withTime = false): string {
  const ms = fromAccountTime(value);
  if (ms === null) return '—';
  return withTime ? format.dateTime(ms) : format.date(ms);
}

/** A createdAt/updatedAt timestamp object as a local date and time. */
export function formatTimestamp(ts: Timestamp | undefined): string {
  if (!ts) return '—';
  const ms = timestampToEpochMs(ts);
  return Number.isNaN(ms) ? `${ts.date} ${ts.timezone}` : format.dateTime(ms);
}

/** dealAmount as the panels show it. */
export function formatDealAmount(value: number | string | null | undefined): string {
  return format.amount(value);
}

/** An epoch-milliseconds instant as a local date and time. */
export function formatTimestampMs(ms: number): string {
  return format.dateTime(ms);
}
