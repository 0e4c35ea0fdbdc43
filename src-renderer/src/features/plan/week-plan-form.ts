// Plan the week, the form's side: what the rep typed (start and end points, hours per day, visit
// minutes, windows from a custom field, speed) read into the planner's input
// (src-shared/week-plan.ts), with a message per input for what cannot be read. Pure: the panel's
// state class calls it, the planner runs in a worker (week-plan-run.ts).
import { isValidPosition, type LngLat } from '../../../../src-shared/geo';
import type { DayHours, PlanStop, WeekPlanInput } from '../../../../src-shared/week-plan';
import type { CustomFieldKey } from '../../../../src-shared';
import type { CustomerView } from '../../types';
import { format } from '../../ui/format';
import type { DistanceUnit } from '../../ui/units.svelte';
import { text } from './text';

/** Where a day starts or ends: a saved place, a customer, an address of a customer, coordinates. */
export type PointKind = 'home' | 'office' | 'customer' | 'address' | 'coords';
export const POINT_KINDS: readonly PointKind[] = [
  'home',
  'office',
  'customer',
  'address',
  'coords',
];

/** The inputs a message can stand next to. */
export type FormField =
  | 'stops'
  | 'start'
  | 'end'
  | 'days'
  | 'hours'
  | 'visit'
  | 'windows'
  | 'speed'
  | 'road'
  /** Not one visit fits the days. */
  | 'fit'
  | 'general';

export type FieldErrors = Partial<Record<FormField, string>>;

/** Why a stop is not in any day (the planner's reasons and the form's own). */
export type LeftReason =
  'window-outside-hours' | 'too-far' | 'no-room' | 'no-position' | 'window-unreadable';

export const LEFT_REASON_TEXT: Record<LeftReason, string> = text.form.leftReason;

/** "08:30" as minutes after midnight; null when it is not a time of day. */
export function parseClock(text: string): number | null {
  const m = /^\s*(\d{1,2})[:.h](\d{2})\s*$/.exec(text) ?? /^\s*(\d{1,2})\s*$/.exec(text);
  if (!m) return null;
  const h = Number(m[1]);
  const min = m[2] === undefined ? 0 : Number(m[2]);
  if (h > 24 || min > 59 || (h === 24 && min > 0)) return null;
  return h * 60 + min;
}

/** A window typed as "09:00-12:00" (also "9-12", "09:00 – 12:00"); null when unreadable. */
export function parseWindow(text: string): { openMin: number; closeMin: number } | null {
  const parts = text.split(/\s*(?:-|–|—|to)\s*/);
  if (parts.length !== 2) return null;
  const open = parseClock(parts[0]!);
  const close = parseClock(parts[1]!);
  return open !== null && close !== null && open <= close
    ? { openMin: open, closeMin: close }
    : null;
}

/** "51.5, -0.1" (latitude, longitude) as [lng, lat]; null when not two numbers in range. */
export function parseCoordinates(text: string): LngLat | null {
  const m = /^\s*(-?\d+(?:\.\d+)?)\s*[,;\s]\s*(-?\d+(?:\.\d+)?)\s*$/.exec(text);
  if (!m) return null;
  const lat = Number(m[1]);
  const lng = Number(m[2]);
  return isValidPosition(lat, lng) ? [lng, lat] : null;
}

const norm = (text: string) => text.toLowerCase().replace(/\s+/g, ' ').trim();

/** A point typed by the rep, with where it came from (null position: found, but not on the map). */
export type ResolvedPoint = { position: LngLat | null; label: string } | { error: string };

/**
 * Reads a start or end point. Coordinates are read as such for every kind; otherwise a customer
 * by name, or an address matched against the account's own customers' addresses (there is no
 * geocoding service offline).
 */
export function resolvePoint(
  kind: PointKind,
  input: string,
  customers: readonly CustomerView[],
): ResolvedPoint {
  const typed = input.trim();
  const coords = parseCoordinates(typed);
  if (coords) return { position: coords, label: typed };
  if (typed === '') {
    return {
      error:
        kind === 'home' || kind === 'office'
          ? text.form.placeMissing(kind)
          : kind === 'customer'
            ? text.form.customerMissing
            : kind === 'address'
              ? text.form.addressMissing
              : text.form.coordsMissing,
    };
  }
  if (kind === 'coords') return { error: text.form.coordsUnread };
  const want = norm(typed);
  if (kind === 'customer') {
    const hit =
      customers.find((c) => norm(c.name) === want) ??
      customers.find((c) => norm(c.name).includes(want));
    return hit
      ? { position: hit.position, label: hit.name }
      : { error: text.form.noSuchCustomer(typed) };
  }
  const address = (c: CustomerView) => norm([c.address, c.zip, c.city].filter(Boolean).join(' '));
  const hit = customers.find((c) => c.address !== '' && address(c).includes(want));
  if (hit) return { position: hit.position, label: `${hit.address}, ${hit.city}` };
  return { error: text.form.noSuchAddress(typed) };
}

/** One working day as typed ("08:30", "17:30"). */
export type HoursRow = { from: string; to: string };

export const DEFAULT_HOURS: HoursRow = { from: '08:30', to: '17:30' };

/** Where the customers to plan come from. */
export type PlanSource = 'plan' | 'list' | 'selection' | 'route';

/** Everything the form holds, as typed (kept per account). */
export interface PlanSettings {
  source: PlanSource;
  startKind: PointKind;
  startText: string;
  /** 'same': the day ends where it started. */
  endKind: PointKind | 'same';
  endText: string;
  home: string;
  office: string;
  firstDay: string;
  hours: HoursRow[];
  visitMinutes: string | number | null;
  visitField: CustomFieldKey | '';
  windowField: CustomFieldKey | '';
  speed: string | number | null;
  roadFactor: string | number | null;
}

export function defaultSettings(today: Date): PlanSettings {
  return {
    source: 'plan',
    startKind: 'home',
    startText: '',
    endKind: 'same',
    endText: '',
    home: '',
    office: '',
    firstDay: isoDay(nextWorkingDay(today)),
    hours: Array.from({ length: 5 }, () => ({ ...DEFAULT_HOURS })),
    visitMinutes: '30',
    visitField: '',
    windowField: '',
    speed: '40',
    roadFactor: '1.3',
  };
}

export function isoDay(date: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${p(date.getMonth() + 1)}-${p(date.getDate())}`;
}

/**
 * `today` on a working day, else the Monday after: the plan's days skip weekends, so a form
 * opened on a Saturday would otherwise say "First day: Saturday" over rows for Monday on.
 */
export function nextWorkingDay(today: Date): Date {
  const date = new Date(today.getFullYear(), today.getMonth(), today.getDate());
  while (!isWorkingDay(date)) date.setDate(date.getDate() + 1);
  return date;
}

/** Monday to Friday: the days a plan has rows for. */
const isWorkingDay = (date: Date) => date.getDay() !== 0 && date.getDay() !== 6;

/** The dates of the plan's days: working days (Monday to Friday) from the first day on. */
export function planDates(firstDay: string, count: number): Date[] {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(firstDay);
  const date = m ? new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : new Date();
  const dates: Date[] = [];
  while (dates.length < count) {
    if (isWorkingDay(date)) dates.push(new Date(date));
    date.setDate(date.getDate() + 1);
  }
  return dates;
}

/** "Mon 24 Nov" (in the locale's order). */
export function dayLabel(date: Date): string {
  return format.dayLabel(date.getTime());
}

/** The text of a point kind's input when it is a saved place (home, office) or typed. */
function pointText(settings: PlanSettings, kind: PointKind, typed: string): string {
  return kind === 'home' ? settings.home : kind === 'office' ? settings.office : typed;
}

export interface FormResult {
  /** The planner's input, or null when a message says what to fix first. */
  input: WeekPlanInput | null;
  errors: FieldErrors;
  /** Stops the planner never sees, and why. */
  left: Array<{ id: string; reason: LeftReason; detail?: string }>;
}

/** A typed number (a number input bound by Svelte holds a number, or null when empty). */
const number = (typed: string | number | null): number =>
  typeof typed === 'number' ? typed : (typed ?? '').trim() === '' ? NaN : Number(typed);

const KM_PER_MILE = 1.609344;

/**
 * The speed field's value from the stored km/h: as stored in kilometres, whole mph in miles
 * (50 km/h shows as 31 mph). The planner always reads km/h; the field converts at its edge.
 */
export function shownSpeed(kmh: string | number | null, unit: DistanceUnit): string {
  if (unit === 'km') return kmh === null ? '' : String(kmh);
  const n = number(kmh);
  return Number.isFinite(n) ? String(Math.round(n / KM_PER_MILE)) : '';
}

/** What the rep typed in the speed field, stored as km/h (unreadable text kept as typed). */
export function typedSpeed(typed: string, unit: DistanceUnit): string | number {
  if (unit === 'km') return typed;
  const n = number(typed);
  return Number.isFinite(n) ? n * KM_PER_MILE : typed;
}

/** Reads the form into the planner's input; messages per input for what cannot be read. */
export function readForm(
  settings: PlanSettings,
  stops: readonly CustomerView[],
  everyone: readonly CustomerView[],
  labels: readonly string[],
  /** Stops of the plan pinned to today go on the first day. */
  isToday: (id: string) => boolean = () => false,
  /** The rep's distance unit: the speed message names its speed unit. */
  speedUnit: DistanceUnit = 'km',
): FormResult {
  const errors: FieldErrors = {};
  const left: FormResult['left'] = [];
  if (stops.length === 0) errors.stops = text.form.noStops;

  const start = resolvePoint(
    settings.startKind,
    pointText(settings, settings.startKind, settings.startText),
    everyone,
  );
  if ('error' in start) errors.start = start.error;
  let end: ResolvedPoint | null = null;
  if (settings.endKind !== 'same') {
    end = resolvePoint(
      settings.endKind,
      pointText(settings, settings.endKind, settings.endText),
      everyone,
    );
    if ('error' in end) errors.end = end.error;
    else if (!end.position) errors.end = text.form.endNotOnMap(end.label);
  }

  const days: DayHours[] = [];
  settings.hours.forEach((row, i) => {
    const startMin = parseClock(row.from);
    const endMin = parseClock(row.to);
    if (startMin === null || endMin === null) errors.hours ??= text.form.hoursUnread(i + 1);
    else if (endMin <= startMin) errors.hours ??= text.form.hoursBackwards(i + 1);
    else days.push({ startMin, endMin });
  });
  if (settings.hours.length === 0) errors.days = text.form.noDays;

  const defaultServiceMin = number(settings.visitMinutes);
  if (!Number.isFinite(defaultServiceMin) || defaultServiceMin < 0)
    errors.visit = text.form.visitUnread;
  const speedKmh = number(settings.speed);
  if (!Number.isFinite(speedKmh)) errors.speed = text.form.speedUnread(speedUnit);
  const roadFactor = number(settings.roadFactor);
  if (!Number.isFinite(roadFactor)) errors.road = text.form.roadUnread;

  const planned: PlanStop[] = [];
  const unreadable: string[] = [];
  const outside: string[] = [];
  const visitLabel = settings.visitField ? labelOf(settings.visitField, labels) : '';
  const badVisit: string[] = [];
  for (const c of stops) {
    if (!c.position) {
      left.push({ id: c.id, reason: 'no-position' });
      continue;
    }
    let window: PlanStop['window'] = null;
    const windowText = settings.windowField ? fieldText(c, settings.windowField) : '';
    if (windowText !== '') {
      window = parseWindow(windowText);
      if (!window) {
        unreadable.push(text.form.typedValue(c.name, windowText));
        left.push({ id: c.id, reason: 'window-unreadable', detail: `"${windowText}"` });
        continue;
      }
      const w = window;
      if (days.length > 0 && !days.some((d) => w.closeMin >= d.startMin && w.openMin <= d.endMin))
        outside.push(text.form.window(c.name, w.openMin, w.closeMin));
    }
    let serviceMin: number | null = null;
    const visitText = settings.visitField ? fieldText(c, settings.visitField) : '';
    if (visitText !== '') {
      const v = Number(visitText);
      if (Number.isFinite(v) && v >= 0) serviceMin = v;
      else badVisit.push(text.form.typedValue(c.name, visitText));
    }
    const pinnedDay = settings.source === 'plan' && isToday(c.id) ? 0 : null;
    planned.push({ id: c.id, position: c.position, serviceMin, window, pinnedDay });
  }
  const messages: string[] = [];
  if (outside.length > 0) messages.push(text.form.windowsOutside(outside));
  if (unreadable.length > 0) messages.push(text.form.windowsUnread(unreadable));
  if (messages.length > 0) errors.windows = messages.join(' ');
  if (badVisit.length > 0) errors.visit = text.form.visitFieldUnread(visitLabel, badVisit);

  const blocking = (['stops', 'start', 'end', 'days', 'hours', 'speed', 'road'] as const).some(
    (f) => errors[f] !== undefined,
  );
  if (blocking || !Number.isFinite(defaultServiceMin) || defaultServiceMin < 0)
    return { input: null, errors, left };
  if (planned.length === 0) {
    errors.stops ??= text.form.noneCanBePlanned;
    return { input: null, errors, left };
  }
  const startPoint = 'error' in start ? null : start.position;
  const endPoint = end && !('error' in end) ? end.position : null;
  return {
    input: {
      stops: planned,
      start: startPoint,
      end: endPoint,
      days,
      defaultServiceMin,
      speedKmh,
      roadFactor,
    },
    errors,
    left,
  };
}

/** A custom field's text (a service may send null or a number for one). */
function fieldText(c: CustomerView, key: CustomFieldKey): string {
  const value: unknown = c[key];
  return value === null || value === undefined ? '' : String(value).trim();
}

function labelOf(key: CustomFieldKey, labels: readonly string[]): string {
  return labels[Number(key.slice('custom'.length))] ?? key;
}

/** The input a planner message is about (PlanInputError's messages name it). */
export function fieldOfMessage(message: string): FormField {
  const m = message.toLowerCase();
  if (m.includes('start point')) return 'start';
  if (m.includes('end point')) return 'end';
  if (m.includes('working hours')) return 'hours';
  if (/\bdays?\b/.test(m)) return 'days';
  if (m.includes('speed')) return 'speed';
  if (m.includes('road factor')) return 'road';
  if (m.includes('visit duration') || m.includes('visit length')) return 'visit';
  if (m.includes('time window')) return 'windows';
  if (m.includes('customer')) return 'stops';
  return 'general';
}
