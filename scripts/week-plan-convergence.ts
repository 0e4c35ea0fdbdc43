// Issue 15's convergence check of the week planner: `npx tsx scripts/week-plan-convergence.ts
// [rounds] [restarts]`. On 20 seeded rep weeks (60-300 customers, 3-5 days, windows, customers
// that cannot fit at all, more customers than the days have room for), the plan (default start,
// seed 1) against `restarts` (20) runs of the same search from random initial plans (shuffled
// insertion order, seeds 1001-1020), every run with the same budget of `rounds` (300, the app's
// default from 200 customers up): the plan must visit as many customers as the best of those runs
// and travel at most 5% more, and be no worse than the greedy baseline. Prints each week and the
// gap distribution; exits 1 when a week misses. It is a script, not a vitest suite, while the
// check does not pass yet (the search lands 1-4 visits apart on these weeks: see issue 15).
import { isBetter, type PlanScore } from '../src-shared/week-plan';
import { planWeek } from '../src-shared/week-plan-search';
import { repWeekInstance } from '../test/support/week-instances';

const rounds = Number(process.argv[2] ?? 300);
const restarts = Number(process.argv[3] ?? 20);
const gaps: number[] = [];
let misses = 0;
const show = (s: PlanScore) => `${s.visited} visits/${s.travelMin.toFixed(1)} min`;
for (let seed = 1; seed <= 20; seed++) {
  const stops = 60 + ((seed * 7) % 11) * 24;
  const days = 3 + (seed % 3);
  const input = repWeekInstance(stops, days, seed);
  const { score, baselineScore } = planWeek(input, { iterations: rounds });
  let best = score;
  for (let r = 1; r <= restarts; r++) {
    const run = planWeek(input, { iterations: rounds, seed: 1000 + r, randomStart: true });
    if (isBetter(run.score, best)) best = run.score;
  }
  // Fewer visits than the best counts as an infinite gap.
  const gap = score.visited < best.visited ? Infinity : score.travelMin / best.travelMin - 1;
  const ok = gap <= 0.05 && !isBetter(baselineScore, score);
  if (!ok) misses++;
  gaps.push(gap);
  console.log(
    `week ${seed} (${stops} customers, ${days} days): plan ${show(score)}, best restart ${show(best)}, ` +
      `greedy ${show(baselineScore)}, gap ${(gap * 100).toFixed(2)}%${ok ? '' : '  MISSED'}`,
  );
}
gaps.sort((a, b) => a - b);
const pct = (g: number) => (g === Infinity ? 'fewer visits' : `${(g * 100).toFixed(2)}%`);
const median = gaps[Math.floor(gaps.length / 2)]!;
console.log(
  `gap min ${pct(gaps[0]!)}, median ${pct(median)}, max ${pct(gaps[gaps.length - 1]!)}; ` +
    `${misses} of 20 weeks missed`,
);
process.exitCode = misses > 0 ? 1 : 0;
