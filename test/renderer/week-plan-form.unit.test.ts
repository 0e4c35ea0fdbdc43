// The week plan form's days (the default first day and the dates of the plan's rows) and its
// speed field, read and shown in the rep's unit while the planner reads km/h.
import { describe, expect, it } from 'vitest';
import {
  defaultSettings,
  isoDay,
  nextWorkingDay,
  planDates,
  readForm,
  shownSpeed,
  typedSpeed,
} from '../../src-renderer/src/features/plan/week-plan-form';

describe('the plan form days', () => {
  it('starts on today when today is a working day', () => {
    expect(defaultSettings(new Date(2026, 10, 25, 9, 30)).firstDay).toBe('2026-11-25'); // Wed
    expect(defaultSettings(new Date(2026, 10, 30, 23, 59)).firstDay).toBe('2026-11-30'); // Mon
  });

  it('starts on the Monday after when opened at a weekend, the first row that day', () => {
    for (const today of [new Date(2026, 10, 28, 8), new Date(2026, 10, 29, 20)]) {
      const { firstDay, hours } = defaultSettings(today);
      expect(firstDay).toBe('2026-11-30');
      expect(planDates(firstDay, hours.length).map(isoDay)).toEqual([
        '2026-11-30',
        '2026-12-01',
        '2026-12-02',
        '2026-12-03',
        '2026-12-04',
      ]);
    }
    // Across a month and a year end.
    expect(isoDay(nextWorkingDay(new Date(2027, 0, 2)))).toBe('2027-01-04');
    expect(isoDay(nextWorkingDay(new Date(2026, 11, 31)))).toBe('2026-12-31');
  });

  it('skips weekends between the plan days', () => {
    expect(planDates('2026-11-26', 4).map(isoDay)).toEqual([
      '2026-11-26',
      '2026-11-27',
      '2026-11-30',
      '2026-12-01',
    ]);
  });
});

describe('the plan form speed', () => {
  it('shows the stored km/h as whole mph to a rep who reads miles', () => {
    expect(shownSpeed(50, 'mi')).toBe('31');
    expect(shownSpeed('40', 'mi')).toBe('25');
    expect(shownSpeed('40', 'km')).toBe('40');
    expect(shownSpeed(null, 'mi')).toBe('');
  });

  it('stores typed mph as km/h, so the planner reads the same speed in either unit', () => {
    expect(typedSpeed('31', 'mi')).toBeCloseTo(49.89, 2);
    expect(typedSpeed('50', 'km')).toBe('50');
    expect(shownSpeed(typedSpeed('31', 'mi'), 'mi')).toBe('31');
    const settings = { ...defaultSettings(new Date(2026, 10, 25)), home: '51.5, -0.12' };
    const here = [-0.12, 51.5] as const;
    const customer = { id: 'c1', name: 'Ann', position: here } as never;
    const input = (speed: string | number) =>
      readForm({ ...settings, speed }, [customer], [customer], [], undefined, 'mi').input;
    expect(input(typedSpeed('25', 'mi'))?.speedKmh).toBeCloseTo(40.23, 2);
  });

  it("asks for the speed in the rep's unit", () => {
    const settings = { ...defaultSettings(new Date(2026, 10, 25)), speed: '' };
    expect(readForm(settings, [], [], [], undefined, 'mi').errors.speed).toBe(
      'Type the average speed in mph, e.g. 25.',
    );
    expect(readForm(settings, [], [], []).errors.speed).toBe(
      'Type the average speed in km/h, e.g. 40.',
    );
  });
});
