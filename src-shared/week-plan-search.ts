// Plans the week (week-plan.ts holds the model): ruin and recreate with local search, after
// SISR (Christiaens and Vanden Berghe, "Slack induction by string removals", 2020).
// - Start: regret insertion of every customer (or, for random restarts, cheapest insertion in a
//   shuffled order), or the greedy baseline when that is better; then local search
//   (week-plan-local.ts: 2-opt and Or-opt within a day; relocate, swap and tail exchange between
//   days; insert, or swap in, customers left out) until no move improves.
// - Each round: take out a few strings of consecutive visits around a random customer from nearby
//   days, put every customer not planned back (regret, least-time-first, or cheapest insertion in
//   a random, far-first or near-first order, now and then skipping a place), local search again,
//   and keep the result by simulated annealing (cooling from a tenth of an average leg).
// - The cost is travel minutes plus a penalty per customer left out larger than any week's
//   travel, so more visits always win. For the first rounds minutes on site count as well (a plan
//   of shorter visits has room for one more); the last rounds only weigh travel.
// - The best plan seen (more visits, then less travel) is the result, unless the greedy baseline
//   is better. The travel matrix is computed once (PlanProblem); every feasibility check at a seam
//   is O(1) (week-plan-state.ts). Deterministic for a seed and a number of rounds.
import { seededRandom } from './route-optimizer';
import { localSearch, neighbourLists } from './week-plan-local';
import { PlanState } from './week-plan-state';
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

/** Nearest stops each stop's moves look at. */
const NEIGHBOURS = 25;
/** Ruin: customers taken out on average, longest string of consecutive visits. */
const AVERAGE_REMOVED = 10;
const MAX_STRING = 10;
/** Chance that greedy insertion skips a place (SISR's blinks: variety at no cost). */
const BLINK = 0.01;
/** Simulated annealing from and to these fractions of an average leg. */
const START_TEMPERATURE = 0.1;
const END_TEMPERATURE = 0.002;
/** Share of the rounds after more visits before the rest goes to less travel. */
const VISITS_PHASE = 0.6;

/** Rounds by default: about half a second of one core for 300 customers over 5 days (bench). */
function defaultIterations(servable: number): number {
  return Math.min(300, servable + 100);
}

/** Inserts each of `stops` (in order) where it adds the least travel, skipping a position now and then. */
function greedyInsert(
  st: PlanState,
  stops: readonly number[],
  random: () => number,
  blink: number,
): void {
  const skip = blink > 0 ? () => random() < blink : undefined;
  for (const k of stops) st.insertCheapest(k, skip);
}

/**
 * Best-first insertion, at each stop's cheapest place: by regret, repeatedly the stop whose best
 * day beats its second best day by the most (a stop only one day has room for goes first); else
 * the stop that takes the least time (added travel plus its visit), which fits the most visits
 * into full days. Each stop's best place per day is kept and recomputed only for the day that
 * changed.
 */
function bestFirstInsert(st: PlanState, stops: readonly number[], regret: boolean): void {
  const days = st.routes.length;
  const cost = new Float64Array(stops.length * days);
  const at = new Int32Array(stops.length * days);
  const bestIn = (s: number, d: number) => {
    let best = Infinity;
    let bestAt = -1;
    const m = st.mayFit(stops[s]!, d) ? st.routes[d]!.length : -1;
    for (let i = 0; i <= m; i++) {
      const c = st.insertionCost(stops[s]!, d, i) + st.p.service[stops[s]!]!;
      if (c < best) {
        best = c;
        bestAt = i;
      }
    }
    cost[s * days + d] = best;
    at[s * days + d] = bestAt;
  };
  const left = new Uint8Array(stops.length).fill(1);
  for (let s = 0; s < stops.length; s++) for (let d = 0; d < days; d++) bestIn(s, d);
  for (;;) {
    let pick = -1;
    let pickDay = -1;
    let pickRegret = -Infinity;
    let pickCost = Infinity;
    for (let s = 0; s < stops.length; s++) {
      if (!left[s]) continue;
      let c1 = Infinity;
      let c2 = Infinity;
      let d1 = -1;
      for (let d = 0; d < days; d++) {
        const c = cost[s * days + d]!;
        if (c < c1) {
          c2 = c1;
          c1 = c;
          d1 = d;
        } else if (c < c2) c2 = c;
      }
      if (d1 < 0) continue;
      const score = regret ? c2 - c1 : -c1;
      if (score > pickRegret || (score === pickRegret && c1 < pickCost)) {
        pick = s;
        pickDay = d1;
        pickRegret = score;
        pickCost = c1;
      }
    }
    if (pick < 0) return;
    st.routes[pickDay]!.splice(at[pick * days + pickDay]!, 0, stops[pick]!);
    st.refresh(pickDay);
    left[pick] = 0;
    for (let s = 0; s < stops.length; s++) if (left[s]) bestIn(s, pickDay);
  }
}

/**
 * SISR-style ruin (Christiaens and Vanden Berghe): from a random planned stop, walk its nearest
 * stops and cut one string of consecutive visits around each from a few different days.
 */
function ruinStrings(st: PlanState, nbrs: Int32Array[], random: () => number): void {
  const planned: number[] = [];
  for (const route of st.routes) planned.push(...route);
  if (planned.length === 0) return;
  const busyDays = st.routes.filter((r) => r.length > 0).length;
  const maxLength = Math.min(MAX_STRING, planned.length / busyDays);
  const maxStrings = (4 * AVERAGE_REMOVED) / (1 + maxLength) - 1;
  const strings = Math.floor(random() * maxStrings) + 1;
  const seed = planned[Math.floor(random() * planned.length)]!;
  const out = new Uint8Array(st.p.size);
  const ruined = new Set<number>();
  const around = [seed, ...nbrs[seed]!];
  for (let x = 0; x < around.length && ruined.size < strings; x++) {
    const v = around[x]!;
    const d = st.dayOf[v]!;
    if (d < 0 || ruined.has(d)) continue;
    const route = st.routes[d]!;
    const length = Math.floor(random() * Math.min(route.length, maxLength)) + 1;
    const first = Math.max(
      0,
      Math.min(route.length - length, st.pos[v]! - 1 - Math.floor(random() * length)),
    );
    for (let i = first; i < first + length; i++) out[route[i]!] = 1;
    ruined.add(d);
  }
  st.removeAll(out);
}

/** Puts back every stop not planned: greedy in a random, far-first or near-first order, or by regret. */
function recreate(st: PlanState, servable: readonly number[], random: () => number): void {
  const absent = servable.filter((k) => st.dayOf[k]! < 0);
  const mode = random();
  if (mode < 0.2) return bestFirstInsert(st, absent, true);
  if (mode < 0.5) return bestFirstInsert(st, absent, false);
  const p = st.p;
  if (mode < 0.75) shuffle(absent, random);
  else if (mode < 0.9) absent.sort((a, b) => p.t(0, b) - p.t(0, a));
  else absent.sort((a, b) => p.t(0, a) - p.t(0, b));
  greedyInsert(st, absent, random, BLINK);
}

function shuffle<T>(items: T[], random: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
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
  const result = (routes: DayRoutes): WeekPlanResult => {
    let score = scoreOf(problem, routes);
    if (isBetter(baselineScore, score)) {
      routes = copy(baselineRoutes);
      score = baselineScore;
    }
    return {
      plan: describePlan(problem, routes),
      baseline: describePlan(problem, baselineRoutes),
      score,
      baselineScore,
    };
  };
  if (servable.length === 0) return result(baselineRoutes);

  const nbrs = neighbourLists(problem, Math.min(NEIGHBOURS, servable.length - 1));
  const order = shuffle(servable.slice(), random);
  const empty = problem.days.map((): number[] => []);
  let current = new PlanState(problem, empty);
  if (options.randomStart) {
    greedyInsert(current, shuffle(servable.slice(), random), random, 0);
  } else {
    bestFirstInsert(current, servable, true);
    const greedy = new PlanState(problem, baselineRoutes);
    if (greedy.cost() < current.cost()) current = greedy;
  }
  // First after more visits (minutes on site count, so short visits win room), then less travel.
  current.onSiteWeight = 1;
  localSearch(current, nbrs, order);
  let best = current;
  let bestScore = { visited: current.planned, travelMin: current.travelMin() };

  const iterations = options.iterations ?? defaultIterations(servable.length);
  const leg = current.travelMin() / Math.max(1, current.planned);
  const hot = START_TEMPERATURE * leg;
  const cold = END_TEMPERATURE * leg;
  for (let it = 0; it < iterations; it++) {
    if (it === Math.floor(iterations * VISITS_PHASE)) {
      current = best.clone();
      current.onSiteWeight = 0;
      current.lsStamp = 0;
      localSearch(current, nbrs, order);
      best = current;
      bestScore = { visited: current.planned, travelMin: current.travelMin() };
    }
    const candidate = current.clone();
    ruinStrings(candidate, nbrs, random);
    recreate(candidate, servable, random);
    localSearch(candidate, nbrs, order);
    const temperature = hot * (cold / hot) ** (it / iterations);
    const cost = candidate.cost();
    if (cost < current.cost() - temperature * Math.log(1 - random())) current = candidate;
    const score = { visited: candidate.planned, travelMin: candidate.travelMin() };
    if (isBetter(score, bestScore)) {
      best = candidate;
      bestScore = score;
    }
  }
  return result(best.snapshot());
}
