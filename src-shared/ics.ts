// Planned visits as an iCalendar file (RFC 5545) that Outlook, Google Calendar and Apple
// Calendar import: one VEVENT per visit, times in UTC (no VTIMEZONE to get wrong), text escaped
// and lines folded at 75 octets. A visit's UID comes from its plan and customer, never from
// chance or the day (a plan visits a customer once), so importing the plan again replaces its
// events, a stop moved to another day included, instead of adding a second copy.

/** One planned visit. */
export interface CalendarVisit {
  uid: string;
  startMs: number;
  endMs: number;
  summary: string;
  location: string;
  description: string;
  /** A link back to the customer; null for none. */
  url: string | null;
}

const CRLF = '\r\n';
const FOLD_OCTETS = 75;

/** An instant as an iCalendar UTC DATE-TIME: 20261123T083000Z. */
export function icsUtc(ms: number): string {
  return new Date(ms)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

/** TEXT escaped (RFC 5545 3.3.11): \ ; , and line breaks; other control characters dropped. */
export function escapeIcsText(text: string): string {
  return (
    text
      .replace(/\r\n?/g, '\n')
      // eslint-disable-next-line no-control-regex -- the controls TEXT may not hold
      .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '')
      .replace(/[\\;,]/g, (c) => `\\${c}`)
      .replace(/\n/g, '\\n')
  );
}

const utf8Octets = (codePoint: number) =>
  codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4;

/**
 * A content line folded (RFC 5545 3.1): no line longer than 75 octets of UTF-8, each
 * continuation starting with one space, never splitting a character.
 */
export function foldIcsLine(line: string): string {
  const out: string[] = [];
  let current = '';
  let octets = 0;
  for (const char of line) {
    const size = utf8Octets(char.codePointAt(0)!);
    if (octets + size > FOLD_OCTETS) {
      out.push(current);
      current = ' ';
      octets = 1;
    }
    current += char;
    octets += size;
  }
  out.push(current);
  return out.join(CRLF);
}

/** Characters safe in a UID on every calendar (the rest percent-encoded). */
const uidPart = (text: string) => encodeURIComponent(text).replace(/[!'()*]/g, '');

/** The UID of the visit to `customerId` in the plan (or route) `planKey`. */
export function visitUid(planKey: string, customerId: string): string {
  return `${uidPart(planKey)}.${uidPart(customerId)}@fieldmap`;
}

/** FNV-1a of a text as 8 hex digits: a short stable key for a name. */
export function stableKey(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

/** Minutes from 2020 to the export: grows with every export, so a calendar takes the newer one. */
const sequenceOf = (stampMs: number) =>
  Math.max(0, Math.floor((stampMs - Date.UTC(2020, 0, 1)) / 60_000));

/** The calendar file of `visits`, exported at `stampMs`; `name` is the calendar's name. */
export function icsCalendar(
  visits: readonly CalendarVisit[],
  stampMs: number,
  name: string,
): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Fieldmap//Fieldmap visit plan//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `X-WR-CALNAME:${escapeIcsText(name)}`,
  ];
  const stamp = icsUtc(stampMs);
  for (const visit of visits) {
    lines.push(
      'BEGIN:VEVENT',
      `UID:${visit.uid}`,
      `DTSTAMP:${stamp}`,
      `SEQUENCE:${sequenceOf(stampMs)}`,
      `DTSTART:${icsUtc(visit.startMs)}`,
      `DTEND:${icsUtc(visit.endMs)}`,
      `SUMMARY:${escapeIcsText(visit.summary)}`,
    );
    if (visit.location.trim() !== '') lines.push(`LOCATION:${escapeIcsText(visit.location)}`);
    if (visit.description !== '') lines.push(`DESCRIPTION:${escapeIcsText(visit.description)}`);
    // A URI is not TEXT: it is not escaped, only kept free of line breaks.
    if (visit.url) lines.push(`URL:${visit.url.replace(/[\r\n]/g, '')}`);
    lines.push('TRANSP:OPAQUE', 'END:VEVENT');
  }
  lines.push('END:VCALENDAR');
  return lines.map(foldIcsLine).join(CRLF) + CRLF;
}
