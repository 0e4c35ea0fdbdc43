// The spec's timestamp objects (PHP's DateTime as JSON) turned into epoch milliseconds.
// timezone_type 1 is a UTC offset ("+02:00"), 2 an abbreviation ("EST", a fixed offset from
// PHP's own table), 3 an IANA zone ("Europe/Oslo", read with its DST rules through Intl).
// What cannot be read is an error naming the field: the app then shows the value as sent.
import type { Timestamp } from './domain';

/** "YYYY-MM-DD HH:MM:SS" with optional fraction digits; PHP writes year -1 for a zero date. */
export const TIMESTAMP_DATE_RE =
  /^(-?\d{4,})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?$/;

const OFFSET_RE = /^([+-])(\d{2}):?(\d{2})$/;

/**
 * Minutes east of UTC of the common abbreviations, as PHP reads them (the first entry of its
 * timezonemap for each: IST is Israel, AST Arabia, CST US Central, BST British Summer Time).
 */
const PHP_ABBREVIATIONS: Record<string, number> = {
  Z: 0,
  UT: 0,
  UTC: 0,
  GMT: 0,
  WET: 0,
  WEST: 60,
  BST: 60,
  CET: 60,
  MET: 60,
  CEST: 120,
  MEST: 120,
  EET: 120,
  EEST: 180,
  IST: 120,
  IDT: 180,
  MSK: 180,
  AST: 180,
  GST: 240,
  PKT: 300,
  NPT: 345,
  ICT: 420,
  WIB: 420,
  HKT: 480,
  SGT: 480,
  AWST: 480,
  PHT: 480,
  JST: 540,
  KST: 540,
  ACST: 570,
  ACDT: 630,
  AEST: 600,
  AEDT: 660,
  NZST: 720,
  NZDT: 780,
  HST: -600,
  AKST: -540,
  AKDT: -480,
  PST: -480,
  PDT: -420,
  MST: -420,
  MDT: -360,
  CST: -360,
  CDT: -300,
  EST: -300,
  EDT: -240,
  ADT: -180,
  NST: -210,
  NDT: -150,
  BRT: -180,
  ART: -180,
  SAST: 120,
  WAT: 60,
  CAT: 120,
  EAT: 180,
};

export type TimestampReading = { ok: true; ms: number } | { ok: false; error: string };

// One formatter per zone for the process (null: Intl does not know the zone). Building an
// Intl.DateTimeFormat costs far more than using one.
const zoneFormats = new Map<string, Intl.DateTimeFormat | null>();

function zoneFormat(timeZone: string): Intl.DateTimeFormat | null {
  let format = zoneFormats.get(timeZone);
  if (format === undefined) {
    try {
      format = new Intl.DateTimeFormat('en-US', {
        timeZone,
        hourCycle: 'h23',
        era: 'short',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      });
    } catch {
      format = null;
    }
    zoneFormats.set(timeZone, format);
  }
  return format;
}

/** Epoch ms of a proleptic Gregorian wall time read as UTC (years 0..99 and below are kept). */
function utcMs(y: number, mo: number, d: number, h: number, mi: number, s: number): number {
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  date.setUTCHours(h, mi, s, 0);
  return date.getTime();
}

// Offsets are asked of Intl once per UTC day of a zone: a day whose start and end have the
// same offset has it throughout (no zone changes twice in a day); a day of change is read per
// 15-minute slot (zones change offset on quarter hours at the finest).
const DAY_MS = 86_400_000;
const SLOT_MS = 15 * 60_000;
interface ZoneOffsets {
  days: Map<number, number | null>;
  slots: Map<number, number>;
}
const offsets = new Map<Intl.DateTimeFormat, ZoneOffsets>();
let cached = 0;

/** Milliseconds east of UTC at a UTC instant, straight from Intl. */
function intlOffsetMs(format: Intl.DateTimeFormat, at: number): number {
  const parts = format.formatToParts(new Date(at));
  const get = (t: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === t)?.value ?? '';
  const year = get('era') === 'BC' ? 1 - Number(get('year')) : Number(get('year'));
  const wall = utcMs(
    year,
    Number(get('month')),
    Number(get('day')),
    Number(get('hour')),
    Number(get('minute')),
    Number(get('second')),
  );
  return wall - at;
}

function remember<K, V>(map: Map<K, V>, key: K, value: V): V {
  if (++cached > 500_000) {
    offsets.clear();
    cached = 0;
  }
  map.set(key, value);
  return value;
}

/** Milliseconds east of UTC of a zone (its formatter) at a UTC instant. */
function zoneOffsetMs(format: Intl.DateTimeFormat, at: number): number {
  let zone = offsets.get(format);
  if (!zone) offsets.set(format, (zone = { days: new Map(), slots: new Map() }));
  const day = Math.floor(at / DAY_MS);
  let whole = zone.days.get(day);
  if (whole === undefined) {
    const start = intlOffsetMs(format, day * DAY_MS);
    const end = intlOffsetMs(format, (day + 1) * DAY_MS);
    whole = remember(zone.days, day, start === end ? start : null);
  }
  if (whole !== null) return whole;
  const slot = Math.floor(at / SLOT_MS);
  return zone.slots.get(slot) ?? remember(zone.slots, slot, intlOffsetMs(format, slot * SLOT_MS));
}

/** Milliseconds east of UTC of an IANA zone at a UTC instant; null when Intl does not know it. */
export function zoneOffsetAt(timeZone: string, utcMs: number): number | null {
  const format = zoneFormat(timeZone);
  return format ? zoneOffsetMs(format, utcMs) : null;
}

/**
 * The instant of a wall time in a zone. A wall time repeated when clocks go back is the first
 * one; one skipped when they go forward is read with the offset before the change (PHP's way:
 * 02:30 becomes 03:30).
 */
function zonedInstant(format: Intl.DateTimeFormat, wall: number): number {
  const before = zoneOffsetMs(format, wall - 86_400_000);
  const after = zoneOffsetMs(format, wall + 86_400_000);
  // No change of offset within a day either side: the common case.
  if (before === after && zoneOffsetMs(format, wall - before) === before) return wall - before;
  const fits = [wall - before, wall - after].filter((t) => zoneOffsetMs(format, t) === wall - t);
  return fits.length > 0 ? Math.min(...fits) : wall - before;
}

function offsetMs(timezone: string): number | null {
  const m = OFFSET_RE.exec(timezone);
  if (!m) return null;
  const hours = Number(m[2]);
  const minutes = Number(m[3]);
  if (hours > 14 || minutes > 59) return null;
  return (m[1] === '-' ? -1 : 1) * (hours * 60 + minutes) * 60_000;
}

/** The instant a wall time denotes in a zone designator; null when the designator is unknown. */
function instantIn(timezone: string, type: number, wall: number): number | null {
  const offset = offsetMs(timezone);
  if (offset !== null) return wall - offset;
  const abbreviation = PHP_ABBREVIATIONS[timezone.toUpperCase()];
  // Type 3 names a zone even when it looks like an abbreviation ("CET" has summer time there).
  if (abbreviation !== undefined && type !== 3) return wall - abbreviation * 60_000;
  const format = zoneFormat(timezone);
  if (format) return zonedInstant(format, wall);
  return abbreviation !== undefined ? wall - abbreviation * 60_000 : null;
}

/**
 * The instant of a timestamp object, or an error naming `field` (e.g. "createdAt") when its
 * date or zone cannot be read. Never throws.
 */
export function readTimestamp(ts: Timestamp, field = 'timestamp'): TimestampReading {
  const m = TIMESTAMP_DATE_RE.exec(ts.date);
  const [y, mo, d, h, mi, s] = (m?.slice(1, 7) ?? []).map(Number) as number[];
  const wall = m ? utcMs(y!, mo!, d!, h!, mi!, s!) : Number.NaN;
  const check = new Date(wall);
  if (
    !m ||
    !Number.isFinite(wall) ||
    check.getUTCMonth() !== mo! - 1 ||
    check.getUTCDate() !== d! ||
    h! > 23 ||
    mi! > 59 ||
    s! > 59
  ) {
    return { ok: false, error: `${field}: "${ts.date}" is not a date (YYYY-MM-DD HH:MM:SS)` };
  }
  const fraction = Number((m[7] ?? '').padEnd(3, '0').slice(0, 3));
  const instant = instantIn(ts.timezone.trim(), ts.timezone_type, wall);
  if (instant === null) {
    return {
      ok: false,
      error: `${field}: unknown time zone "${ts.timezone}" (timezone_type ${ts.timezone_type})`,
    };
  }
  return { ok: true, ms: instant + fraction };
}

/** Epoch milliseconds of a timestamp object; NaN when its date or zone cannot be read. */
export function timestampToEpochMs(ts: Timestamp): number {
  const read = readTimestamp(ts);
  return read.ok ? read.ms : Number.NaN;
}
