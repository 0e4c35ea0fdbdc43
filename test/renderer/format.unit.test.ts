// The formatter and the distance unit's default, in explicit locales (vitest compiles the runes
// of units.svelte.ts as the app's build does).
import { describe, expect, it } from 'vitest';
import { Formatter } from '../../src-renderer/src/ui/format';
import { defaultDistanceUnit, DistanceUnits } from '../../src-renderer/src/ui/units.svelte';

const us = new Formatter('en-US', () => 'mi', 'UTC');
const ie = new Formatter('en-IE', () => 'km', 'UTC');
const de = new Formatter('de-DE', () => 'km', 'UTC');
const NOV_23 = Date.UTC(2026, 10, 23, 14, 5);

describe('Formatter', () => {
  it('writes counts in the locale’s grouping', () => {
    expect(us.count(12345)).toBe('12,345');
    expect(ie.count(12345)).toBe('12,345');
    expect(de.count(12345)).toBe('12.345');
  });

  it('picks the plural form and counts with it', () => {
    expect(ie.plural(1, 'visit', 'visits')).toBe('visit');
    expect(ie.plural(2, 'visit', 'visits')).toBe('visits');
    expect(ie.counted(0, 'visit', 'visits')).toBe('0 visits');
    expect(ie.counted(1, 'visit', 'visits')).toBe('1 visit');
    expect(ie.counted(1200, 'visit', 'visits')).toBe('1,200 visits');
  });

  it('writes dates in the locale’s order', () => {
    expect(ie.date(NOV_23)).toBe('23 Nov 2026');
    expect(us.date(NOV_23)).toBe('Nov 23, 2026');
    expect(ie.dayLabel(NOV_23)).toBe('Mon 23 Nov');
    expect(us.dayLabel(NOV_23)).toBe('Mon Nov 23');
    expect(ie.time(NOV_23)).toBe('14:05');
  });

  it('writes clocks and durations as the planner reads them', () => {
    expect(ie.clock(9 * 60 + 5)).toBe('09:05');
    expect(ie.duration(45)).toBe('45 min');
    expect(ie.duration(6 * 60 + 5)).toBe('6 h 05 min');
  });

  it('writes a time left closely enough to be true', () => {
    expect(ie.wait(45)).toBe('45 s');
    expect(ie.wait(95)).toBe('1 min 40 s');
    expect(ie.wait(150)).toBe('2 min 30 s');
    expect(ie.wait(180)).toBe('3 min');
    expect(ie.wait(725)).toBe('12 min');
    expect(ie.wait(5_400)).toBe('1.5 h');
    expect(ie.timeLeft(95)).toBe('about 1 min 40 s left');
    expect(ie.timeLeft(null)).toBe('');
    // Every wait under 10 min is written within 10 % of itself, and every longer one within 20 %.
    for (let s = 1; s < 6 * 3600; s += s < 600 ? 1 : 7) {
      const m = /^(?:([\d.]+) h)?(?:(\d+) min)? ?(?:(\d+) s)?$/.exec(ie.wait(s))!;
      const shown = Number(m[1] ?? 0) * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0);
      expect(Math.abs(shown - s) / s).toBeLessThanOrEqual(s < 600 ? 0.1 : 0.2);
    }
  });

  it('writes distances in the rep’s unit with digits by size', () => {
    expect(ie.distance(350)).toBe('0.35 km');
    expect(ie.distance(4200)).toBe('4.2 km');
    expect(ie.distance(37_000)).toBe('37 km');
    expect(us.distance(350)).toBe('0.22 mi');
    expect(us.distance(4200)).toBe('2.6 mi');
    expect(us.distance(37_000)).toBe('23 mi');
    expect(de.distance(4200)).toBe('4,2 km');
    expect(us.toMeters(1)).toBeCloseTo(1609.344);
    expect(ie.toMeters(1)).toBe(1000);
  });

  it('writes areas in the rep’s unit', () => {
    expect(ie.area(38_712)).toBe('about 38,700 km²');
    expect(us.area(38_712)).toBe('about 14,900 mi²');
    expect(ie.area(12.4)).toBe('about 12 km²');
  });

  it('writes byte sizes in MB, small ones in KB', () => {
    expect(ie.megabytes(50_000)).toMatch(/^0\.05 MB$/);
    expect(ie.megabytes(3.4 * 1024 * 1024)).toBe('3.4 MB');
    expect(ie.megabytes(180 * 1024 * 1024)).toBe('180 MB');
    expect(ie.storage(3000)).toBe('3 KB');
  });
});

describe('defaultDistanceUnit', () => {
  it('reads miles where the region drives in miles, else kilometres', () => {
    expect(defaultDistanceUnit('en-US')).toBe('mi');
    expect(defaultDistanceUnit('en-GB')).toBe('mi');
    expect(defaultDistanceUnit('de-DE')).toBe('km');
    expect(defaultDistanceUnit('fr-CA')).toBe('km');
    // 'en' alone maximizes to en-Latn-US.
    expect(defaultDistanceUnit('en')).toBe('mi');
    expect(defaultDistanceUnit('not a locale!')).toBe('km');
  });

  it('keeps the rep’s choice over the locale’s default', () => {
    const kept = new Map<string, string>();
    const storage = {
      getItem: (k: string) => kept.get(k) ?? null,
      setItem: (k: string, v: string) => void kept.set(k, v),
    };
    const units = new DistanceUnits(storage, 'en-US');
    expect(units.unit).toBe('mi');
    units.unit = 'km';
    expect(new DistanceUnits(storage, 'en-US').unit).toBe('km');
  });
});
