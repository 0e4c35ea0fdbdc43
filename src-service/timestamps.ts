// Emits the spec's timestamp objects the way PHP's DateTime serialises them, in each
// timezone_type: 1 = UTC offset ("+02:00"), 2 = abbreviation ("EST", a fixed offset in PHP),
// 3 = IANA zone ("Europe/Oslo", wall time there, with DST). PHP writes microseconds
// ("2026-11-23 02:47:23.000000"); the `timestampFraction` variant plays that.
import type { Timestamp } from '../src-shared/domain';
import { zoneOffsetAt } from '../src-shared/time';
import type { Variants } from './types';

/** The designators each timezone_type can be played with; the first is the default. */
export const TIMEZONE_CHOICES = {
  1: ['+00:00', '+02:00', '-05:00', '+05:30', '-03:30'],
  2: ['Z', 'UTC', 'GMT', 'EST', 'EDT', 'CST', 'PST', 'CET', 'CEST', 'BST', 'IST'],
  3: ['America/Chicago', 'Europe/Oslo', 'UTC', 'Asia/Kolkata', 'America/St_Johns'],
} as const;

/** Every designator a `timezone` variant may name ('default': the type's first). */
export const TIMEZONE_VARIANTS = ['default', ...new Set(Object.values(TIMEZONE_CHOICES).flat())];

/** Minutes east of UTC PHP gives each abbreviation above (its own table: IST is Israel's). */
const ABBREVIATION_MINUTES: Record<string, number> = {
  Z: 0,
  UTC: 0,
  GMT: 0,
  EST: -300,
  EDT: -240,
  CST: -360,
  PST: -480,
  CET: 60,
  CEST: 120,
  BST: 60,
  IST: 120,
};

/** The reason a timezone designator does not fit the timezone_type, or null when it does. */
export function timezoneMismatch(type: 1 | 2 | 3, timezone: string): string | null {
  if (timezone === 'default') return null;
  const choices: readonly string[] = TIMEZONE_CHOICES[type];
  return choices.includes(timezone)
    ? null
    : `variant timezone "${timezone}" is not a timezone_type ${type} designator (one of ${choices.join(', ')})`;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

function formatWall(wallMs: number, micro: boolean): string {
  const d = new Date(wallMs);
  const date =
    `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ` +
    `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  return micro ? `${date}.${pad(d.getUTCMilliseconds(), 3)}000` : date;
}

function offsetDesignatorMs(designator: string): number {
  const m = /^([+-])(\d{2}):(\d{2})$/.exec(designator);
  if (!m) throw new Error(`not an offset: ${designator}`);
  const minutes = Number(m[2]) * 60 + Number(m[3]);
  return (m[1] === '-' ? -minutes : minutes) * 60_000;
}

type TimestampVariants = Pick<Variants, 'timezoneType' | 'timezone' | 'timestampFraction'>;

/**
 * The timestamp object of an instant (epoch ms) under the variants: whole seconds, or with
 * PHP's six fraction digits (milliseconds, then 000) when `timestampFraction` is 'micro'.
 */
export function formatTimestamp(ms: number, variants: TimestampVariants): Timestamp {
  const type = variants.timezoneType;
  const micro = variants.timestampFraction === 'micro';
  const instant = micro ? ms : Math.floor(ms / 1000) * 1000;
  const timezone = variants.timezone === 'default' ? TIMEZONE_CHOICES[type][0] : variants.timezone;
  const offset =
    type === 1
      ? offsetDesignatorMs(timezone)
      : type === 2
        ? (ABBREVIATION_MINUTES[timezone] ?? 0) * 60_000
        : (zoneOffsetAt(timezone, instant) ?? 0);
  return { date: formatWall(instant + offset, micro), timezone_type: type, timezone };
}
