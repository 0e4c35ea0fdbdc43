// The week planner (src-shared/week-plan*.ts) on small seeded instances: every day keeps its
// hours, every visit its window, every customer is planned once or left over, a pinned customer
// keeps its day; the plan is never worse than the greedy baseline; bad input is refused with a
// message that says what to change. How good the plans are (within 5% of the best of 20 random
// restarts) is measured by `npm run bench -- plan-quality` (scripts/bench/plan-quality.ts).
import { describe, expect, it } from 'vitest';
import type { LngLat } from '../../src-shared/geo';
import { PlanInputError, type WeekPlanInput } from '../../src-shared/week-plan';
import { planWeek } from '../../src-shared/week-plan-search';
import { weekInstance as instance } from '../support/week-instances';

/** Replays a day from the input alone: travel, waiting, service, windows, hours. */
function replay(input: WeekPlanInput, day: number, ids: readonly string[]) {
  const byId = new Map(input.stops.map((s) => [s.id, s]));
  const minutes = (a: LngLat, b: LngLat) => {
    const toRad = Math.PI / 180;
    const h =
      Math.sin(((b[1] - a[1]) * toRad) / 2) ** 2 +
      Math.cos(a[1] * toRad) * Math.cos(b[1] * toRad) * Math.sin(((b[0] - a[0]) * toRad) / 2) ** 2;
    const km = 2 * 6371.0088 * Math.asin(Math.sqrt(h)) * input.roadFactor;
    return (km / input.speedKmh) * 60;
  };
  let at = input.start!;
  let time = input.days[day]!.startMin;
  for (const id of ids) {
    const stop = byId.get(id)!;
    const begin = Math.max(time + minutes(at, stop.position), stop.window?.openMin ?? -Infinity);
    if (stop.window)
      expect(begin, `${id} starts inside its window`).toBeLessThanOrEqual(
        stop.window.closeMin + 1e-6,
      );
    time = begin + (stop.serviceMin ?? input.defaultServiceMin);
    at = stop.position;
  }
  return time + minutes(at, input.end ?? input.start!);
}

describe('plan the week', () => {
  it('keeps every day inside its hours and every visit inside its window (4 seeded instances)', () => {
    for (let seed = 1; seed <= 4; seed++) {
      const input = instance(15 + seed * 5, seed);
      const { plan } = planWeek(input, { iterations: 30 });
      const visited = plan.days.flatMap((d) => d.visits.map((v) => v.id));
      expect(new Set(visited).size, 'no customer twice').toBe(visited.length);
      expect(visited.length + plan.leftover.length).toBe(input.stops.length);
      plan.days.forEach((day, d) => {
        const back = replay(
          input,
          d,
          day.visits.map((v) => v.id),
        );
        expect(back).toBeLessThanOrEqual(input.days[d]!.endMin + 1e-6);
        if (day.visits.length > 0) expect(day.returnMin).toBeCloseTo(back, 6);
      });
    }
  });

  it('is never worse than the greedy baseline (10 seeded instances)', () => {
    for (let seed = 1; seed <= 10; seed++) {
      const { score, baselineScore } = planWeek(instance(25, 100 + seed), { iterations: 20 });
      const better =
        score.visited > baselineScore.visited ||
        (score.visited === baselineScore.visited &&
          score.travelMin <= baselineScore.travelMin + 1e-9);
      expect(better, `seed ${seed}: ${JSON.stringify({ score, baselineScore })}`).toBe(true);
    }
  });

  it('lists what does not fit, with the reason', () => {
    const input = instance(5, 7);
    input.stops = [
      ...input.stops,
      { id: 'night', position: [-0.1, 51.51], window: { openMin: 20 * 60, closeMin: 22 * 60 } },
      { id: 'far', position: [2.35, 48.86] },
    ];
    const { plan } = planWeek(input, { iterations: 50 });
    expect(plan.leftover).toEqual(
      expect.arrayContaining([
        { id: 'night', reason: 'window-outside-hours' },
        { id: 'far', reason: 'too-far' },
      ]),
    );
  });

  it('keeps a pinned customer on its day, in the plan and in the greedy baseline', () => {
    const input = instance(50, 31);
    const pins = new Map<string, number>();
    input.stops = input.stops.map((stop, i) => {
      if (i % 10 !== 0) return stop;
      const day = (i / 10) % 3 === 0 ? 0 : 3;
      pins.set(stop.id, day);
      return { ...stop, pinnedDay: day };
    });
    const { plan, baseline } = planWeek(input, { iterations: 200 });
    for (const week of [plan, baseline]) {
      const seen = new Set<string>();
      week.days.forEach((day, d) =>
        day.visits.forEach((visit) => {
          seen.add(visit.id);
          if (pins.has(visit.id))
            expect(d, `${visit.id} on its pinned day`).toBe(pins.get(visit.id));
        }),
      );
      for (const { id } of week.leftover) expect(seen.has(id)).toBe(false);
    }
    const planned = new Set(plan.days.flatMap((day) => day.visits.map((v) => v.id)));
    const reasons = new Map(plan.leftover.map((l) => [l.id, l.reason]));
    expect(
      [...pins.keys()].some((id) => planned.has(id)),
      'pinned customers get planned',
    ).toBe(true);
    for (const id of pins.keys()) if (!planned.has(id)) expect(reasons.get(id)).toBeDefined();
  });

  it('leaves a pinned customer over, with the reason, when its day cannot take it', () => {
    const input = instance(60, 8, 3);
    input.days = [
      { startMin: 8 * 60, endMin: 17 * 60 },
      { startMin: 8 * 60, endMin: 17 * 60 },
      { startMin: 8 * 60, endMin: 12 * 60 },
    ];
    input.stops = [
      ...input.stops.map((stop, i) => (i < 40 ? { ...stop, pinnedDay: 2, window: null } : stop)),
      // Opens after the third day's hours end, though the first two days could take it.
      {
        id: 'afternoon',
        position: [-0.1, 51.49],
        window: { openMin: 14 * 60, closeMin: 15 * 60 },
        pinnedDay: 2,
      },
    ];
    const { plan } = planWeek(input, { iterations: 200 });
    const reasons = new Map(plan.leftover.map((l) => [l.id, l.reason]));
    expect(reasons.get('afternoon')).toBe('window-outside-hours');
    const onDay3 = plan.days[2]!.visits.map((v) => v.id);
    const pinnedOut = input.stops.filter(
      (s) => s.pinnedDay === 2 && s.id !== 'afternoon' && !onDay3.includes(s.id),
    );
    expect(pinnedOut.length, 'a four-hour day has no room for 40 visits').toBeGreaterThan(0);
    for (const stop of pinnedOut) expect(reasons.get(stop.id)).toBe('no-room');
    expect(
      plan.days[0]!.visits.some((v) => input.stops.find((s) => s.id === v.id)?.pinnedDay === 2),
    ).toBe(false);
  });

  it('refuses bad input with a clear message', () => {
    const ok = instance(3, 1);
    const cases: Array<[Partial<WeekPlanInput>, RegExp]> = [
      [{ stops: [] }, /at least one customer/],
      [{ start: null }, /start point has no position/],
      [{ days: [{ startMin: 600, endMin: 500 }] }, /day 1 must start before/],
      [{ days: [] }, /between 1 and/],
      [{ speedKmh: 0 }, /speed/],
      [{ stops: [{ id: 'a', position: [0, 0] }] }, /no position/],
      [
        { stops: [{ id: 'a', position: [1, 50], window: { openMin: 700, closeMin: 600 } }] },
        /window/,
      ],
      [{ stops: [{ id: 'a', position: [1, 50], pinnedDay: 5 }] }, /pinned to day 6.*days 1 to 5/],
      [{ stops: [{ id: 'a', position: [1, 50], pinnedDay: -1 }] }, /pinned to day 0/],
      [{ stops: [{ id: 'a', position: [1, 50], pinnedDay: 1.5 }] }, /pinned to day/],
    ];
    for (const [patch, message] of cases) {
      expect(() => planWeek({ ...ok, ...patch }), String(message)).toThrow(PlanInputError);
      expect(() => planWeek({ ...ok, ...patch })).toThrow(message);
    }
  });
});
