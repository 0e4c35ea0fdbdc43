// Improves a week plan (week-plan.ts) by ruin and recreate: take a few visits out (at random, or
// a customer and its neighbours), put every left-over visit back where it adds the least travel
// and still fits every window and the day's hours, keep the result when it is better (or not
// much worse, to leave local optima), and remember the best. The baseline (greedy) is one of the
// starting plans, so the result is never worse than it. Deterministic for a seed.
import { seededRandom } from './route-optimizer';
import {
  describePlan,
  greedyRoutes,
  isBetter,
  PlanProblem,
  scoreOf,
  type DayRoutes,
  type PlanScore,
  type WeekPlan,
  type WeekPlanInput,
} from './week-plan';

export interface PlanOptions {
  /** Seed of the random choices (default 1). */
  seed?: number;
  /** Ruin-and-recreate rounds (default: scales with the stop count, capped). */
  iterations?: number;
  /** Start from a random insertion order instead of the best constructed plan (restarts). */
  randomStart?: boolean;
}

export interface WeekPlanResult {
  /** The optimised plan. */
  plan: WeekPlan;
  /** The greedy baseline, for "before and after". */
  baseline: WeekPlan;
  score: PlanScore;
  baselineScore: PlanScore;
}

const WAIT_WEIGHT = 0.5;

/** Departure time and latest start per position of one day's route: O(1) insertion checks. */
class DayState {
  route: number[];
  /** depart[i]: leaving position i (0 = the start point, i = route[i - 1]). */
  depart: number[] = [];
  /** latest[i]: the latest start at position i that keeps the rest feasible; i = m + 1 is the end. */
  latest: number[] = [];

  constructor(
    readonly problem: PlanProblem,
    readonly day: number,
    route: number[],
  ) {
    this.route = route;
    this.refresh();
  }

  node(i: number): number {
    return i === 0 ? 0 : i > this.route.length ? this.problem.endNode : this.route[i - 1]!;
  }

  refresh(): void {
    const p = this.problem;
    const m = this.route.length;
    const hours = p.days[this.day]!;
    this.depart = new Array<number>(m + 1);
    this.depart[0] = hours.startMin;
    for (let i = 1; i <= m; i++) {
      const k = this.route[i - 1]!;
      const begin = Math.max(this.depart[i - 1]! + p.t(this.node(i - 1), k), p.open[k]!);
      this.depart[i] = begin + p.service[k]!;
    }
    this.latest = new Array<number>(m + 2);
    this.latest[m + 1] = hours.endMin;
    for (let i = m; i >= 1; i--) {
      const k = this.route[i - 1]!;
      this.latest[i] = Math.min(
        p.close[k]!,
        this.latest[i + 1]! - p.t(k, this.node(i + 1)) - p.service[k]!,
      );
    }
  }

  /** Added travel of visiting `k` right after position `i`, or Infinity when it does not fit. */
  insertionCost(k: number, i: number): number {
    const p = this.problem;
    const a = this.node(i);
    const b = this.node(i + 1);
    const arrive = this.depart[i]! + p.t(a, k);
    const begin = Math.max(arrive, p.open[k]!);
    if (begin > p.close[k]!) return Infinity;
    if (begin + p.service[k]! + p.t(k, b) > this.latest[i + 1]! + 1e-9) return Infinity;
    // Waiting counts half: it spends the day's hours, which matters when not every visit fits.
    return p.t(a, k) + p.t(k, b) - p.t(a, b) + WAIT_WEIGHT * (begin - arrive);
  }
}

/** Puts each of `stops` (in order) where it adds the least travel; returns those that fit nowhere. */
function recreate(days: DayState[], stops: readonly number[]): number[] {
  const unplaced: number[] = [];
  for (const k of stops) {
    let best: DayState | null = null;
    let bestAt = -1;
    let bestCost = Infinity;
    for (const day of days) {
      for (let i = 0; i <= day.route.length; i++) {
        const cost = day.insertionCost(k, i);
        if (cost < bestCost) {
          bestCost = cost;
          best = day;
          bestAt = i;
        }
      }
    }
    if (!best) {
      unplaced.push(k);
      continue;
    }
    best.route.splice(bestAt, 0, k);
    best.refresh();
  }
  return unplaced;
}

/** Takes `count` visits out: at random, or one visit and those nearest to it. */
function ruin(
  problem: PlanProblem,
  days: DayState[],
  count: number,
  random: () => number,
): number[] {
  const placed = days.flatMap((day) => day.route);
  if (placed.length === 0) return [];
  let chosen: number[];
  if (random() < 0.5) {
    const seed = placed[Math.floor(random() * placed.length)]!;
    chosen = placed
      .map((k) => ({ k, d: problem.t(seed, k) }))
      .sort((x, y) => x.d - y.d)
      .slice(0, count)
      .map((x) => x.k);
  } else {
    chosen = [];
    const pool = placed.slice();
    for (let c = 0; c < count && pool.length > 0; c++) {
      const at = Math.floor(random() * pool.length);
      chosen.push(pool[at]!);
      pool[at] = pool[pool.length - 1]!;
      pool.pop();
    }
  }
  const out = new Set(chosen);
  for (const day of days) {
    if (day.route.some((k) => out.has(k))) {
      day.route = day.route.filter((k) => !out.has(k));
      day.refresh();
    }
  }
  return chosen;
}

function shuffle<T>(items: T[], random: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

/** 2-opt inside each day, checked by a full schedule (windows make reversal order-sensitive). */
function twoOptDays(problem: PlanProblem, routes: DayRoutes): void {
  routes.forEach((route, d) => {
    let improved = true;
    while (improved) {
      improved = false;
      const base = problem.routeTravel(route);
      for (let i = 0; i < route.length - 1 && !improved; i++) {
        for (let j = i + 1; j < route.length && !improved; j++) {
          const candidate = [
            ...route.slice(0, i),
            ...route.slice(i, j + 1).reverse(),
            ...route.slice(j + 1),
          ];
          if (problem.routeTravel(candidate) < base - 1e-9 && problem.feasible(d, candidate)) {
            route.splice(0, route.length, ...candidate);
            improved = true;
          }
        }
      }
    }
  });
}

const copy = (routes: DayRoutes): DayRoutes => routes.map((r) => r.slice());

/** Plans the week: the optimised plan and the greedy baseline. Throws PlanInputError on bad input. */
export function planWeek(input: WeekPlanInput, options: PlanOptions = {}): WeekPlanResult {
  const problem = new PlanProblem(input);
  const random = seededRandom(options.seed ?? 1);
  const servable: number[] = [];
  for (let k = 1; k <= problem.n; k++) if (problem.servable[k]) servable.push(k);

  const baselineRoutes = greedyRoutes(problem);
  const baselineScore = scoreOf(problem, baselineRoutes);

  // Starting plans: the baseline, and cheapest insertion (farthest first, or random for restarts).
  const fresh = () => problem.days.map((_, d) => new DayState(problem, d, []));
  const inserted = fresh();
  const order = options.randomStart
    ? shuffle(servable.slice(), random)
    : servable.slice().sort((a, b) => problem.t(0, b) - problem.t(0, a));
  recreate(inserted, order);
  let current = inserted.map((day) => day.route);
  let currentScore = scoreOf(problem, current);
  if (!options.randomStart && isBetter(baselineScore, currentScore)) {
    current = copy(baselineRoutes);
    currentScore = baselineScore;
  }
  let best = copy(current);
  let bestScore = currentScore;

  const iterations = options.iterations ?? Math.min(3_000, 40 * servable.length + 200);
  const maxRemove = Math.max(2, Math.min(30, Math.ceil(servable.length * 0.15)));
  for (let it = 0; it < iterations && servable.length > 0; it++) {
    const days = current.map((route, d) => new DayState(problem, d, route.slice()));
    const placed = new Set(days.flatMap((day) => day.route));
    const left = servable.filter((k) => !placed.has(k));
    const removed = ruin(problem, days, 2 + Math.floor(random() * (maxRemove - 1)), random);
    // The visits taken out go back first, then those no day had room for.
    const byDistance = (a: number, b: number) => problem.t(0, b) - problem.t(0, a);
    const mode = random();
    recreate(days, mode < 0.5 ? shuffle(removed, random) : removed.sort(byDistance));
    recreate(days, mode < 0.5 ? shuffle(left, random) : left.sort(byDistance));
    const routes = days.map((day) => day.route);
    const score = scoreOf(problem, routes);
    // Record-to-record travel: accept a plan with as many visits and at most 1% more travel.
    const accept =
      isBetter(score, currentScore) ||
      (score.visited === bestScore.visited && score.travelMin <= bestScore.travelMin * 1.01);
    if (accept) {
      current = routes;
      currentScore = score;
    }
    if (isBetter(score, bestScore)) {
      best = copy(routes);
      bestScore = score;
    }
  }
  twoOptDays(problem, best);
  bestScore = scoreOf(problem, best);
  if (isBetter(baselineScore, bestScore)) {
    best = copy(baselineRoutes);
    bestScore = baselineScore;
  }
  return {
    plan: describePlan(problem, best),
    baseline: describePlan(problem, baselineRoutes),
    score: bestScore,
    baselineScore,
  };
}
