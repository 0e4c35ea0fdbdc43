// The spec's timestamp objects, turned into epoch milliseconds.
import type { Timestamp } from './domain';

const OFFSET_RE = /^([+-])(\d{2}):?(\d{2})$/;

const ABBREVIATIONS: Record<string, number> = {
  Z: 0,
  UTC: 0,
  GMT: 0,
  EST: -300,
  EDT: -240,
  CST: -360,
  CDT: -300,
  MST: -420,
  MDT: -360,
  PST: -480,
  PDT: -420,
  CET: 60,
  CEST: 120,
};

/** Minutes east of UTC of an IANA zone at a UTC instant (via Intl, so DST is right). */
function zoneOffsetMinutes(timeZone: string, utcMs: number): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(utcMs));
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value);
  const asUtc = Date.UTC(
    get('year'),
    get('month') - 1,
    get('day'),
    get('hour'),
    get('minute'),
    get('second'),
  );
  return Math.round((asUtc - utcMs) / 60_000);
}

/** Epoch milliseconds of a timestamp object; NaN when its zone is unknown. */
export function timestampToEpochMs(ts: Timestamp): number {
  const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(ts.date);
  if (!m) return Number.NaN;
  const wall = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!);
  const offset = OFFSET_RE.exec(ts.timezone);
  if (offset) {
    const minutes = Number(offset[2]) * 60 + Number(offset[3]);
    return wall - (offset[1] === '-' ? -minutes : minutes) * 60_000;
  }
  const abbreviation = ABBREVIATIONS[ts.timezone.toUpperCase()];
  if (abbreviation !== undefined) return wall - abbreviation * 60_000;
  try {
    // Wall time in a named zone: correct the guess once for the zone's offset at that instant.
    const first = wall - zoneOffsetMinutes(ts.timezone, wall) * 60_000;
    return wall - zoneOffsetMinutes(ts.timezone, first) * 60_000;
  } catch {
    return Number.NaN;
  }
}
