// The .ics writer (issue 28, plans in the calendar) read back by an independent parser
// (ical.js, Mozilla's, the one Thunderbird uses): every visit an event with its times, text with
// , ; \ and line breaks intact, lines folded at 75 octets without splitting a character, and
// UIDs that depend on the plan, the customer and the day only.
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import {
  escapeIcsText,
  foldIcsLine,
  icsCalendar,
  stableKey,
  visitUid,
  type CalendarVisit,
} from '../../src-shared/ics';

const START = Date.UTC(2026, 10, 23, 8, 30);
const MIN = 60_000;

function visits(count: number): CalendarVisit[] {
  return Array.from({ length: count }, (_, i) => ({
    uid: visitUid('plan-2026-11-23', `c${i}`),
    startMs: START + (i % 5) * 1440 * MIN + Math.floor(i / 5) * 45 * MIN,
    endMs: START + (i % 5) * 1440 * MIN + Math.floor(i / 5) * 45 * MIN + 30 * MIN,
    summary: `Visit: Søndergaard, Müller; García \\ Co ${i}`,
    location: 'Hauptstraße 1, 50667 Köln, Deutschland',
    description: `Phone: +49 221 123\nNotes: line one\r\nline two, with; all \\ kinds ${'ü'.repeat(60)}`,
    url: `fieldmap://customer/c${i}`,
  }));
}

/** The events ical.js reads from a calendar text. */
function parsed(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  return calendar.getAllSubcomponents('vevent').map((c) => new ICAL.Event(c));
}

describe('the .ics writer', () => {
  it('writes 40 visits that an independent parser reads back as they were', () => {
    const input = visits(40);
    const text = icsCalendar(input, Date.UTC(2026, 10, 20, 12), 'Week plan from 2026-11-23');
    const events = parsed(text);
    expect(events).toHaveLength(40);
    events.forEach((event, i) => {
      const want = input[i]!;
      expect(event.uid).toBe(want.uid);
      expect(event.startDate.toJSDate().getTime()).toBe(want.startMs);
      expect(event.endDate.toJSDate().getTime()).toBe(want.endMs);
      expect(event.startDate.zone?.tzid).toBe('UTC');
      expect(event.summary).toBe(want.summary);
      expect(event.location).toBe(want.location);
      expect(event.description).toBe(want.description.replace(/\r\n/g, '\n'));
      expect(event.component.getFirstPropertyValue('url')).toBe(want.url);
      expect(event.component.getFirstPropertyValue('dtstamp')?.toString()).toBe(
        '2026-11-20T12:00:00Z',
      );
    });
    expect(new Set(events.map((e) => e.uid)).size).toBe(40);
  });

  it('ends every line with CRLF and folds none longer than 75 octets', () => {
    const text = icsCalendar(visits(3), START, 'A plan');
    expect(text.endsWith('END:VCALENDAR\r\n')).toBe(true);
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    const lines = text.split('\r\n').slice(0, -1);
    for (const line of lines) expect(Buffer.byteLength(line, 'utf8')).toBeLessThanOrEqual(75);
    expect(lines.some((line) => line.startsWith(' '))).toBe(true);
    // No character is cut in two: each line is whole UTF-8 on its own.
    for (const line of lines) expect(Buffer.from(line, 'utf8').toString('utf8')).toBe(line);
  });

  it('folds by octets and escapes , ; \\ and line breaks', () => {
    const line = `DESCRIPTION:${'é'.repeat(100)}`;
    const folded = foldIcsLine(line).split('\r\n');
    // 12 + 31 x 2 octets (a 32nd é would make 76), then a space and 37 é, then the last 32.
    expect(folded.map((l) => Buffer.byteLength(l))).toEqual([74, 75, 65]);
    expect(folded.map((l, i) => (i === 0 ? l : l.slice(1))).join('')).toBe(line);
    expect(escapeIcsText('a,b;c\\d\r\ne\nf\rg\u0007')).toBe('a\\,b\\;c\\\\d\\ne\\nf\\ng');
  });

  it('derives UIDs from the plan and the customer only, not the day', () => {
    expect(visitUid('plan-2026-11-23', 'c1')).toBe('plan-2026-11-23.c1@fieldmap');
    expect(visitUid('plan-2026-11-23', 'c1')).not.toBe(visitUid('plan-2026-11-30', 'c1'));
    expect(visitUid('plan-2026-11-23', 'c 1/é')).toBe('plan-2026-11-23.c%201%2F%C3%A9@fieldmap');
    expect(stableKey('Monday round')).toBe(stableKey('Monday round'));
    expect(stableKey('Monday round')).not.toBe(stableKey('Tuesday round'));
  });
});
