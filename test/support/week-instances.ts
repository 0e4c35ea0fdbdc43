// Seeded week-planning instances for the planner's tests and its bench: customers spread over
// a metro area, 30% with a two-hour window, 10-25 minute visits, five 8:00-17:00 days.
import type { LngLat } from '../../src-shared/geo';
import { seededRandom } from '../../src-shared/route-optimizer';
import type { WeekPlanInput } from '../../src-shared/week-plan';

export function weekInstance(stops: number, seed: number): WeekPlanInput {
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
    days: Array.from({ length: 5 }, () => ({ startMin: 8 * 60, endMin: 17 * 60 })),
    defaultServiceMin: 20,
    speedKmh: 40,
    roadFactor: 1.3,
  };
}
