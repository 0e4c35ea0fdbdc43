// Emits the spec's timestamp objects in each timezone_type reading:
// 1 = UTC offset ("+00:00"), 2 = abbreviation ("Z"), 3 = IANA zone with the date as wall time there.
import type { Timestamp } from '../src-shared/domain';

/** Zone used for timezone_type 3: a real zone with DST, so clients must convert properly. */
export const TYPE3_ZONE = 'America/Chicago';

const pad = (n: number) => String(n).padStart(2, '0');

function formatUtc(ms: number): string {
  const d = new Date(ms);
  return (
    `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ` +
    `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`
  );
}

// One formatter for the process: building an Intl.DateTimeFormat is the expensive part.
const zoneFormat = new Intl.DateTimeFormat('en-US', {
  timeZone: TYPE3_ZONE,
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

// Offset of the zone per UTC hour: zone offsets change only on whole hours, and asking Intl once
// per hour instead of once per instant makes 100k-record lists fast.
const offsetByHour = new Map<number, number>();

function zoneOffsetMs(ms: number): number {
  const hour = Math.floor(ms / 3_600_000);
  let offset = offsetByHour.get(hour);
  if (offset === undefined) {
    const at = hour * 3_600_000;
    const parts = zoneFormat.formatToParts(new Date(at));
    const get = (t: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === t)?.value);
    const wall = Date.UTC(
      get('year'),
      get('month') - 1,
      get('day'),
      get('hour'),
      get('minute'),
      get('second'),
    );
    offset = wall - at;
    if (offsetByHour.size > 100_000) offsetByHour.clear();
    offsetByHour.set(hour, offset);
  }
  return offset;
}

/** The timestamp object for an instant (epoch ms, truncated to whole seconds). */
export function formatTimestamp(ms: number, type: 1 | 2 | 3): Timestamp {
  const seconds = Math.floor(ms / 1000) * 1000;
  if (type === 1) return { date: formatUtc(seconds), timezone_type: 1, timezone: '+00:00' };
  if (type === 2) return { date: formatUtc(seconds), timezone_type: 2, timezone: 'Z' };
  return {
    date: formatUtc(seconds + zoneOffsetMs(seconds)),
    timezone_type: 3,
    timezone: TYPE3_ZONE,
  };
}
