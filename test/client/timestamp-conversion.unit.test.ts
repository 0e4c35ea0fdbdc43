// src-shared/time.ts: every form of PHP's timestamp object to the instant it denotes, and a
// clear error naming the field for the forms it cannot read (the app then shows them as sent).
import { afterEach, describe, expect, it } from 'vitest';
import type { Timestamp } from '../../src-shared/domain';
import { timestampCell } from '../../src-shared/csv-cells';
import { readTimestamp, timestampToEpochMs } from '../../src-shared/time';

const ts = (date: string, timezone_type: number, timezone: string): Timestamp => ({
  date,
  timezone_type,
  timezone,
});
const utc = (...parts: [number, number, number, number, number, number, number?]) =>
  Date.UTC(parts[0], parts[1] - 1, parts[2], parts[3], parts[4], parts[5], parts[6] ?? 0);

describe('timestampToEpochMs', () => {
  it('reads offsets (type 1), with or without the colon', () => {
    expect(timestampToEpochMs(ts('2026-11-23 02:47:23', 1, '+02:00'))).toBe(
      utc(2026, 11, 23, 0, 47, 23),
    );
    expect(timestampToEpochMs(ts('2026-11-23 02:47:23', 1, '-0330'))).toBe(
      utc(2026, 11, 23, 6, 17, 23),
    );
    expect(timestampToEpochMs(ts('2026-11-23 02:47:23', 1, '+05:45'))).toBe(
      utc(2026, 11, 22, 21, 2, 23),
    );
  });

  it('reads fraction digits as milliseconds (PHP writes six)', () => {
    expect(timestampToEpochMs(ts('2026-11-23 02:47:23.000000', 3, 'UTC'))).toBe(
      utc(2026, 11, 23, 2, 47, 23),
    );
    expect(timestampToEpochMs(ts('2026-11-23 02:47:23.417000', 1, '+00:00'))).toBe(
      utc(2026, 11, 23, 2, 47, 23, 417),
    );
    expect(timestampToEpochMs(ts('2026-11-23 02:47:23.4', 2, 'Z'))).toBe(
      utc(2026, 11, 23, 2, 47, 23, 400),
    );
    expect(timestampToEpochMs(ts('2026-11-23 02:47:23.123456789', 2, 'UTC'))).toBe(
      utc(2026, 11, 23, 2, 47, 23, 123),
    );
  });

  it("reads abbreviations (type 2) as PHP's table does, whatever the season", () => {
    const at = (tz: string) => timestampToEpochMs(ts('2026-07-01 12:00:00', 2, tz));
    const noon = utc(2026, 7, 1, 12, 0, 0);
    const hours = 3_600_000;
    expect(at('EST')).toBe(noon + 5 * hours);
    expect(at('EDT')).toBe(noon + 4 * hours);
    expect(at('CST')).toBe(noon + 6 * hours);
    expect(at('PDT')).toBe(noon + 7 * hours);
    expect(at('GMT')).toBe(noon);
    expect(at('BST')).toBe(noon - hours);
    expect(at('CET')).toBe(noon - hours);
    expect(at('CEST')).toBe(noon - 2 * hours);
    expect(at('EEST')).toBe(noon - 3 * hours);
    expect(at('JST')).toBe(noon - 9 * hours);
    expect(at('AEST')).toBe(noon - 10 * hours);
    // PHP's first entries: IST is Israel (+02:00), AST is Arabia (+03:00).
    expect(at('IST')).toBe(noon - 2 * hours);
    expect(at('AST')).toBe(noon - 3 * hours);
    expect(at('est')).toBe(noon + 5 * hours);
  });

  it('reads IANA zones (type 3) with their DST rules', () => {
    expect(timestampToEpochMs(ts('2026-07-01 14:00:00', 3, 'Europe/Oslo'))).toBe(
      utc(2026, 7, 1, 12, 0, 0),
    );
    expect(timestampToEpochMs(ts('2026-01-15 13:00:00.005000', 3, 'Europe/Oslo'))).toBe(
      utc(2026, 1, 15, 12, 0, 0, 5),
    );
    expect(timestampToEpochMs(ts('2026-07-01 09:30:00', 3, 'America/St_Johns'))).toBe(
      utc(2026, 7, 1, 12, 0, 0),
    );
    expect(timestampToEpochMs(ts('2026-01-15 17:30:00', 3, 'Asia/Kolkata'))).toBe(
      utc(2026, 1, 15, 12, 0, 0),
    );
    expect(timestampToEpochMs(ts('2026-07-01 12:00:00', 3, 'UTC'))).toBe(utc(2026, 7, 1, 12, 0, 0));
    // Type 3 "CET" is the IANA zone with its summer time; type 2 "CET" a fixed +01:00.
    expect(timestampToEpochMs(ts('2026-07-01 12:00:00', 3, 'CET'))).toBe(utc(2026, 7, 1, 10, 0, 0));
    expect(timestampToEpochMs(ts('2026-07-01 12:00:00', 2, 'CET'))).toBe(utc(2026, 7, 1, 11, 0, 0));
  });

  it('reads wall times at DST changes as PHP does', () => {
    // 02:30 does not exist on 29 March in Oslo: PHP moves it to 03:30 CEST.
    expect(timestampToEpochMs(ts('2026-03-29 02:30:00', 3, 'Europe/Oslo'))).toBe(
      utc(2026, 3, 29, 1, 30, 0),
    );
    // 02:30 happens twice on 25 October: the first (summer time) is taken.
    expect(timestampToEpochMs(ts('2026-10-25 02:30:00', 3, 'Europe/Oslo'))).toBe(
      utc(2026, 10, 25, 0, 30, 0),
    );
    expect(timestampToEpochMs(ts('2026-10-25 03:30:00', 3, 'Europe/Oslo'))).toBe(
      utc(2026, 10, 25, 2, 30, 0),
    );
  });

  it("reads years before 100 and PHP's year -1 (a MySQL zero date) without shifting them", () => {
    const minusOne = new Date(0);
    minusOne.setUTCFullYear(-1, 10, 30);
    expect(timestampToEpochMs(ts('-0001-11-30 00:00:00.000000', 3, 'UTC'))).toBe(
      minusOne.getTime(),
    );
    const year50 = new Date(0);
    year50.setUTCFullYear(50, 0, 1);
    expect(timestampToEpochMs(ts('0050-01-01 00:00:00', 1, '+00:00'))).toBe(year50.getTime());
  });
});

describe('readTimestamp: what cannot be read is an error naming the field, never a throw', () => {
  it.each([
    [ts('2026-11-23 02:47:23', 3, 'Mars/Olympus'), /createdAt: unknown time zone "Mars\/Olympus"/],
    [ts('2026-11-23 02:47:23', 2, 'XYZT'), /createdAt: unknown time zone "XYZT"/],
    [ts('2026-11-23 02:47:23', 1, '+99:00'), /createdAt: unknown time zone "\+99:00"/],
    [ts('2026-13-23 02:47:23', 3, 'UTC'), /createdAt: "2026-13-23 02:47:23" is not a date/],
    [ts('2026-02-30 02:47:23', 3, 'UTC'), /createdAt: "2026-02-30 02:47:23" is not a date/],
    [ts('23/11/2026', 3, 'UTC'), /createdAt: "23\/11\/2026" is not a date/],
  ])('%o', (value, message) => {
    const read = readTimestamp(value, 'createdAt');
    expect(read.ok).toBe(false);
    if (!read.ok) expect(read.error).toMatch(message);
    expect(timestampToEpochMs(value)).toBeNaN();
  });

  it('names the instant when it can', () => {
    expect(readTimestamp(ts('2026-11-23 02:47:23', 2, 'EST'), 'updatedAt')).toEqual({
      ok: true,
      ms: utc(2026, 11, 23, 7, 47, 23),
    });
  });
});

describe('Intl.DateTimeFormat instances are cached per zone', () => {
  const Real = Intl.DateTimeFormat;
  afterEach(() => {
    Intl.DateTimeFormat = Real;
  });

  it('builds at most one per zone over thousands of conversions', () => {
    let built = 0;
    Intl.DateTimeFormat = new Proxy(Real, {
      construct(target, args: ConstructorParameters<typeof Intl.DateTimeFormat>) {
        built++;
        return new target(...args);
      },
      apply(target, _this, args: ConstructorParameters<typeof Intl.DateTimeFormat>) {
        built++;
        return target(...args);
      },
    });
    const zones = ['Pacific/Chatham', 'America/Sao_Paulo', 'Africa/Cairo'];
    const start = Date.UTC(2025, 0, 1);
    for (let i = 0; i < 3000; i++) {
      const d = new Date(start + i * 7_919_000);
      const date = d.toISOString().slice(0, 19).replace('T', ' ');
      expect(timestampToEpochMs(ts(date, 3, zones[i % 3]!))).not.toBeNaN();
    }
    // An unknown zone is tried once, not once per call.
    for (let i = 0; i < 100; i++) timestampToEpochMs(ts('2026-01-01 00:00:00', 3, 'Mars/Base'));
    expect(built).toBeLessThanOrEqual(zones.length + 1);
  });
});

describe('CSV export of timestamps', () => {
  it('writes the instant in ISO form, and an unreadable one as sent rather than dropping it', () => {
    expect(timestampCell(ts('2026-11-23 02:47:23.417000', 2, 'EST'))).toBe(
      '2026-11-23T07:47:23.417Z',
    );
    expect(timestampCell(ts('2026-11-23 02:47:23.000000', 3, 'Mars/Olympus'))).toBe(
      '2026-11-23 02:47:23.000000 Mars/Olympus',
    );
  });
});
