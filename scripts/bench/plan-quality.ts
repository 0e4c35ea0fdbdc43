// Bench module (run by scripts/bench.ts): how good the planners' answers are, against random
// restarts of the same searches. Correctness (hours, windows, every stop once) is tested in
// test/workflow/*.unit.test.ts at small sizes; quality lives here, with its thresholds, because
// it takes minutes of CPU and says nothing a shorter run would not.
// - week_plan_*: 20 seeded rep weeks (40-120 customers, 3-5 days, windows, more customers than
//   room): the default plan against the best of 20 runs from random initial plans
//   (test/support/week-gap.ts: as many visits as the best and at most 5% more travel), and never
//   worse than the greedy baseline.
// - route_opt_*: 30 seeded instances of 20-100 stops: the optimised trip within 5% of the best
//   of 50 local searches from random initial orders.
// Each threshold and whether it was met is in the results (bench-results/plan-quality.json).
// The week check at 60-300 customers is scripts/week-plan-convergence.ts.
import { optimizeRoute } from '../../src-shared/route-optimizer';
import { planWeek } from '../../src-shared/week-plan-search';
import {
  bestOfRandomRestarts,
  instance as routeInstance,
} from '../../test/support/route-instances';
import { weekGap } from '../../test/support/week-gap';
import { repWeekInstance } from '../../test/support/week-instances';

const WEEK_GAP = 0.05;
const ROUTE_RATIO = 1.05;

export async function run(): Promise<Record<string, number | string>> {
  const weekMisses: string[] = [];
  let worstGap = 0;
  let worstScalar = 0;
  let greedyMisses = 0;
  for (let seed = 1; seed <= 20; seed++) {
    const stops = 40 + ((seed * 7) % 11) * 8;
    const week = weekGap(planWeek, repWeekInstance(stops, 3 + (seed % 3), seed));
    worstGap = Math.max(worstGap, week.gap);
    worstScalar = Math.max(worstScalar, week.scalarGap);
    if (!week.beatsGreedy) greedyMisses++;
    if (!(week.gap <= WEEK_GAP && week.beatsGreedy)) weekMisses.push(`week ${seed} (${stops})`);
  }
  let worstRatio = 0;
  for (let seed = 1; seed <= 30; seed++) {
    const { stops, start } = routeInstance(seed);
    const result = optimizeRoute(stops, { start });
    worstRatio = Math.max(
      worstRatio,
      result.metersAfter / bestOfRandomRestarts(stops, start, seed),
    );
  }
  const pct = (x: number) => (x === Infinity ? Infinity : Math.round(x * 10_000) / 100);
  return {
    week_plan_weeks: 20,
    week_plan_weeks_met: 20 - weekMisses.length,
    week_plan_worst_gap_pct: pct(worstGap),
    week_plan_worst_scalar_gap_pct: pct(worstScalar),
    week_plan_greedy_misses: greedyMisses,
    week_plan_threshold: `every week: as many visits as the best of 20 random restarts, travel <= +${WEEK_GAP * 100}%, never worse than greedy`,
    week_plan_met: weekMisses.length === 0 ? 'yes' : `no: ${weekMisses.join(', ')}`,
    route_opt_instances: 30,
    route_opt_worst_ratio_to_best_of_50: Math.round(worstRatio * 10_000) / 10_000,
    route_opt_threshold: `every instance: trip <= ${ROUTE_RATIO} x the best of 50 random restarts`,
    route_opt_met: worstRatio <= ROUTE_RATIO ? 'yes' : 'no',
  };
}
