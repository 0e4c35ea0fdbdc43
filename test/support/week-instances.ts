// Seeded week-planning instances for the planner's tests and its bench: customers spread over
// a metro area, 30% with a two-hour window, 10-25 minute visits, 8:00-17:00 days.
import type { LngLat } from '../../src-shared/geo';
import { seededRandom } from '../../src-shared/route-optimizer';
import type { PlanStop, WeekPlanInput } from '../../src-shared/week-plan';

export function weekInstance(stops: number, seed: number, days = 5): WeekPlanInput {
  const random = seededRandom(seed);
  return {
    stops: Array.from({ length: stops }, (_, i) => {
      const open = 8 * 60 + Math.floor(random() * 7) * 60;
      return {
        id: `c${i}`,
        position: [-0.4 + random() * 0.8, 51.3 + random() * 0.4] as LngLat,
        serviceMin: 10 + Math.floor(random() * 4) * 5,
        window: random() < 0.3 ? { openMin: open, closeMin: open + 120 } : null,
      };
    }),
    start: [-0.1, 51.5],
    days: Array.from({ length: days }, () => ({ startMin: 8 * 60, endMin: 17 * 60 })),
    defaultServiceMin: 20,
    speedKmh: 40,
    roadFactor: 1.3,
  };
}

/**
 * A rep's week as the planner meets it: `stops` customers over `days` days (the last one ends
 * at 13:00), some with windows, two in another city (too far for a day), one that only opens in
 * the evening; usually more customers than the days have room for.
 */
export function repWeekInstance(stops: number, days: number, seed: number): WeekPlanInput {
  const input = weekInstance(stops - 3, seed, days);
  const far: PlanStop[] = [
    { id: 'far-1', position: [-2.24, 53.48] },
    { id: 'far-2', position: [-1.9, 52.48], serviceMin: 15 },
  ];
  const evening: PlanStop = {
    id: 'evening',
    position: [-0.12, 51.52],
    window: { openMin: 19 * 60, closeMin: 21 * 60 },
  };
  return {
    ...input,
    stops: [...input.stops, ...far, evening],
    days: input.days.map((day, d) => (d === days - 1 ? { ...day, endMin: 13 * 60 } : day)),
  };
}
