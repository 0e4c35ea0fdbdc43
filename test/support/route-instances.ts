// Seeded route-optimisation instances for the optimiser's tests and its plan-quality bench:
// 20-100 stops in a city-sized area somewhere on earth, some clustered, every other one with a
// start point. bestOfRandomRestarts is the bench's reference: the same local search from 50
// random initial orders.
import type { LngLat } from '../../src-shared/geo';
import {
  DistanceMatrix,
  localSearch,
  pathLength,
  seededRandom,
  type RouteStop,
} from '../../src-shared/route-optimizer';

export function instance(seed: number): { stops: RouteStop[]; start: LngLat | null } {
  const random = seededRandom(seed);
  const n = 20 + Math.floor(random() * 81);
  // A city-sized area somewhere on earth, some instances clustered.
  const lng = -170 + random() * 340;
  const lat = -60 + random() * 120;
  const spread = 0.05 + random() * 2;
  const clusters = 1 + Math.floor(random() * 4);
  const centres = Array.from({ length: clusters }, () => [
    lng + (random() - 0.5) * spread,
    lat + (random() - 0.5) * spread,
  ]);
  const stops = Array.from({ length: n }, (_, i) => {
    const c = centres[i % clusters]!;
    return {
      id: `s${seed}-${i}`,
      position: [
        c[0]! + (random() - 0.5) * spread * 0.3,
        c[1]! + (random() - 0.5) * spread * 0.3,
      ] as LngLat,
    };
  });
  const start = seed % 2 === 0 ? ([lng, lat] as LngLat) : null;
  return { stops, start };
}

/** Best of 50 runs of the same local search from random initial orders (anchor kept first). */
export function bestOfRandomRestarts(
  stops: RouteStop[],
  start: LngLat | null,
  seed: number,
): number {
  const points = start ? [start, ...stops.map((s) => s.position)] : stops.map((s) => s.position);
  const d = new DistanceMatrix(points);
  const random = seededRandom(seed * 7919);
  let best = Infinity;
  for (let k = 0; k < 50; k++) {
    const rest = Array.from({ length: points.length - 1 }, (_, i) => i + 1);
    for (let i = rest.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [rest[i], rest[j]] = [rest[j]!, rest[i]!];
    }
    best = Math.min(best, pathLength(d, localSearch(d, [0, ...rest])));
  }
  return best;
}
