// Issue 15's "within 5% of the best of 20 random restarts", measured the same way by the
// plan-quality bench (scripts/bench/plan-quality.ts) and the script at full sizes
// (scripts/week-plan-convergence.ts).
//
// A plan is two numbers: visits, then travel minutes. The strict reading, which is the one
// asserted: the default plan visits at least as many customers as the best of 20 runs of the
// same search from random initial plans (shuffled cheapest insertion, seeds 1001-1020), and when
// it visits as many, travels at most 5% more. `gap` is that travel excess, Infinity when it visits
// fewer. `scalarGap` is the single-objective reading, reported alongside: cost = travel minutes +
// P x customers left out, with P the longest day's minutes (a left-out visit costs a whole day).
// Measured at 836dbba's successor: strict met on all 20 test weeks (40-120 customers, travel gap
// max 3.8%); at 60-300 customers (the script) 9 of 20 weeks of 180+ customers plan 1-4 visits
// fewer than the best restart, so only the scalar reading holds there (max 2.1%).
import { isBetter, type PlanScore, type WeekPlanInput } from '../../src-shared/week-plan';
import type { PlanOptions, WeekPlanResult } from '../../src-shared/week-plan-search';

export interface WeekGap {
  plan: PlanScore;
  best: PlanScore;
  greedy: PlanScore;
  gap: number;
  scalarGap: number;
  /** Whether the plan is no worse than the greedy baseline. */
  beatsGreedy: boolean;
}

export function weekGap(
  planWeek: (input: WeekPlanInput, options?: PlanOptions) => WeekPlanResult,
  input: WeekPlanInput,
  options: PlanOptions = {},
  restarts = 20,
): WeekGap {
  const { score, baselineScore } = planWeek(input, options);
  let best = score;
  for (let r = 1; r <= restarts; r++) {
    const run = planWeek(input, { ...options, seed: 1000 + r, randomStart: true });
    if (isBetter(run.score, best)) best = run.score;
  }
  const P = Math.max(...input.days.map((d) => d.endMin - d.startMin));
  const cost = (s: PlanScore) => s.travelMin + P * (input.stops.length - s.visited);
  return {
    plan: score,
    best,
    greedy: baselineScore,
    gap: score.visited < best.visited ? Infinity : score.travelMin / best.travelMin - 1,
    scalarGap: cost(score) / cost(best) - 1,
    beatsGreedy: !isBetter(baselineScore, score),
  };
}
