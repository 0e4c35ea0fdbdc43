// The week plan form's days: the default first day and the dates of the plan's rows.
import { describe, expect, it } from 'vitest';
import {
  defaultSettings,
  isoDay,
  nextWorkingDay,
  planDates,
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
