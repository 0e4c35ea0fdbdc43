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

function formatInZone(ms: number): string {
  const parts = zoneFormat.formatToParts(new Date(ms));
  const get = (t: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === t)?.value ?? '00';
  return `${get('year')}-${get('month')}-${get('day')} ${get('hour')}:${get('minute')}:${get('second')}`;
}

// Large lists format the same few instants again and again; keep a bounded memo.
const memo = new Map<string, Timestamp>();

/** The timestamp object for an instant (epoch ms, truncated to whole seconds). */
export function formatTimestamp(ms: number, type: 1 | 2 | 3): Timestamp {
  const seconds = Math.floor(ms / 1000) * 1000;
  const key = `${type}:${seconds}`;
  const hit = memo.get(key);
  if (hit) return { ...hit };
  let ts: Timestamp;
  if (type === 1) ts = { date: formatUtc(seconds), timezone_type: 1, timezone: '+00:00' };
  else if (type === 2) ts = { date: formatUtc(seconds), timezone_type: 2, timezone: 'Z' };
  else ts = { date: formatInZone(seconds), timezone_type: 3, timezone: TYPE3_ZONE };
  if (memo.size > 200_000) memo.clear();
  memo.set(key, ts);
  return { ...ts };
}
