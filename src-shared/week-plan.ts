// Plan the week: spreads a set of customer visits over working days and orders each day.
//
// The model: every day starts at `start` at the day's start of work and ends at `end` (default:
// `start`) no later than the day's end of work. A visit takes its service time; it may carry a
// time window (the latest and earliest minute of the day its visit may start); the rep waits
// when early; it may be pinned to one day (e.g. today). Travel time is great-circle distance x
// road factor at an average speed. A plan is better when it visits more customers, then when it
// travels less.
//
// This file holds the model, its validation, the schedule of one day and the greedy baseline
// (nearest feasible next stop, day by day). week-plan-search.ts searches for a better plan
// (week-plan-state.ts, week-plan-local.ts). Pure and
// synchronous: no DOM or Node imports, so it runs in the renderer's worker and in tests.
import { haversineMeters, isValidPosition, type LngLat } from './geo';

/** One customer to visit. */
export interface PlanStop {
  id: string;
  position: LngLat;
  /** Minutes on site; default: the plan's defaultServiceMin. */
  serviceMin?: number | null;
  /** Minutes after midnight between which the visit may start (the same every day). */
  window?: { openMin: number; closeMin: number } | null;
  /** The day (0 = the first) this visit must be on, e.g. "today"; null or absent: any day. */
  pinnedDay?: number | null;
}

/** One working day, in minutes after midnight. */
export interface DayHours {
  startMin: number;
  endMin: number;
}

export interface WeekPlanInput {
  stops: readonly PlanStop[];
  /** Where every day starts; null when the chosen start has no position (refused). */
  start: LngLat | null;
  /** Where every day ends; default: the start. */
  end?: LngLat | null;
  days: readonly DayHours[];
  defaultServiceMin: number;
  /** Average travel speed in km/h. */
  speedKmh: number;
  /** Road distance over great-circle distance (1.3 is typical in a city). */
  roadFactor: number;
}

export type LeftoverReason = 'window-outside-hours' | 'too-far' | 'no-room';

export interface PlannedVisit {
  id: string;
  /** Minutes after midnight. */
  arriveMin: number;
  startMin: number;
  departMin: number;
  /** Travel from the previous stop (or the start). */
  travelMin: number;
}

export interface PlannedDay {
  visits: PlannedVisit[];
  /** Road km of the day, start to end. */
  km: number;
  travelMin: number;
  /** Arrival back at the end point. */
  returnMin: number;
}

export interface WeekPlan {
  days: PlannedDay[];
  leftover: Array<{ id: string; reason: LeftoverReason }>;
  km: number;
  travelMin: number;
}

/** Bad input: the message says what to change. */
export class PlanInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PlanInputError';
  }
}

const MAX_STOPS = 2_000;
const MAX_DAYS = 31;

function validate(input: WeekPlanInput): void {
  if (input.stops.length === 0) throw new PlanInputError('Choose at least one customer to plan.');
  if (input.stops.length > MAX_STOPS)
    throw new PlanInputError(`A plan holds at most ${MAX_STOPS} customers; narrow the selection.`);
  if (!input.start || !isValidPosition(input.start[1], input.start[0]))
    throw new PlanInputError(
      'The start point has no position: choose a customer on the map, an address with a position, or coordinates.',
    );
  if (input.end && !isValidPosition(input.end[1], input.end[0]))
    throw new PlanInputError('The end point has no valid position.');
  if (input.days.length === 0 || input.days.length > MAX_DAYS)
    throw new PlanInputError(`Plan between 1 and ${MAX_DAYS} days.`);
  input.days.forEach((day, i) => {
    if (!(day.startMin >= 0 && day.endMin <= 24 * 60 && day.endMin > day.startMin))
      throw new PlanInputError(`Working hours of day ${i + 1} must start before they end.`);
  });
  if (!(input.speedKmh > 0 && input.speedKmh <= 200))
    throw new PlanInputError('The average speed must be between 1 and 200 km/h.');
  if (!(input.roadFactor >= 1 && input.roadFactor <= 5))
    throw new PlanInputError('The road factor must be between 1 and 5.');
  if (!(input.defaultServiceMin >= 0 && input.defaultServiceMin <= 24 * 60))
    throw new PlanInputError('The visit duration must be between 0 and 1440 minutes.');
  const seen = new Set<string>();
  for (const stop of input.stops) {
    if (seen.has(stop.id)) throw new PlanInputError(`Customer ${stop.id} is in the plan twice.`);
    seen.add(stop.id);
    if (!isValidPosition(stop.position[1], stop.position[0]))
      throw new PlanInputError(`Customer ${stop.id} has no position on the map.`);
    const w = stop.window;
    if (w && !(w.openMin >= 0 && w.closeMin <= 24 * 60 && w.openMin <= w.closeMin))
      throw new PlanInputError(
        `The time window of customer ${stop.id} must open before it closes.`,
      );
    const pin = stop.pinnedDay;
    if (pin != null && !(Number.isInteger(pin) && pin >= 0 && pin < input.days.length))
      throw new PlanInputError(
        `Customer ${stop.id} is pinned to day ${pin + 1}, but the plan has days 1 to ${input.days.length}.`,
      );
  }
}

/**
 * The problem as numbers: node 0 is the start, nodes 1..n the stops, node n+1 the end.
 * `travel` is minutes between nodes, row-major.
 */
export class PlanProblem {
  readonly n: number;
  readonly endNode: number;
  readonly size: number;
  readonly travel: Float64Array;
  readonly km: Float64Array;
  readonly service: Float64Array;
  readonly open: Float64Array;
  readonly close: Float64Array;
  readonly days: readonly DayHours[];
  readonly stops: readonly PlanStop[];
  /** The day each node must be on, -1 when any day will do. */
  readonly pinned: Int32Array;
  /** Stops that can be visited on some day when alone; the others are leftover at once. */
  readonly servable: Uint8Array;

  constructor(input: WeekPlanInput) {
    validate(input);
    const start = input.start!;
    const points: LngLat[] = [start, ...input.stops.map((s) => s.position), input.end ?? start];
    const size = points.length;
    this.n = input.stops.length;
    this.endNode = this.n + 1;
    this.size = size;
    this.days = input.days;
    this.stops = input.stops;
    this.travel = new Float64Array(size * size);
    this.km = new Float64Array(size * size);
    const minutesPerKm = 60 / input.speedKmh;
    for (let i = 0; i < size; i++) {
      for (let j = i + 1; j < size; j++) {
        const km = (haversineMeters(points[i]!, points[j]!) / 1000) * input.roadFactor;
        this.km[i * size + j] = this.km[j * size + i] = km;
        this.travel[i * size + j] = this.travel[j * size + i] = km * minutesPerKm;
      }
    }
    this.service = new Float64Array(size);
    this.open = new Float64Array(size).fill(-Infinity);
    this.close = new Float64Array(size).fill(Infinity);
    input.stops.forEach((stop, k) => {
      this.service[k + 1] = stop.serviceMin ?? input.defaultServiceMin;
      if (stop.window) {
        this.open[k + 1] = stop.window.openMin;
        this.close[k + 1] = stop.window.closeMin;
      }
    });
    this.pinned = new Int32Array(size).fill(-1);
    input.stops.forEach((stop, k) => {
      if (stop.pinnedDay != null) this.pinned[k + 1] = stop.pinnedDay;
    });
    this.servable = new Uint8Array(size);
    for (let k = 1; k <= this.n; k++) {
      if (this.days.some((_, d) => this.allowed(k, d) && this.feasible(d, [k])))
        this.servable[k] = 1;
    }
  }

  /** Whether stop node `k` may go on day `d` (its pinned day, or any day when not pinned). */
  allowed(k: number, d: number): boolean {
    const pin = this.pinned[k]!;
    return pin < 0 || pin === d;
  }

  t(i: number, j: number): number {
    return this.travel[i * this.size + j]!;
  }

  /** Whether day `d` can visit `route` (stop nodes) in that order. */
  feasible(d: number, route: readonly number[]): boolean {
    const day = this.days[d]!;
    let at = 0;
    let time = day.startMin;
    for (const k of route) {
      const begin = Math.max(time + this.t(at, k), this.open[k]!);
      if (begin > this.close[k]!) return false;
      time = begin + this.service[k]!;
      at = k;
    }
    return time + this.t(at, this.endNode) <= day.endMin + 1e-9;
  }

  /** Travel minutes of a day's route, start to end. */
  routeTravel(route: readonly number[]): number {
    let sum = 0;
    let at = 0;
    for (const k of route) {
      sum += this.t(at, k);
      at = k;
    }
    return sum + this.t(at, this.endNode);
  }

  /** Why stop node `k` is left over (a pinned stop: on its day). */
  leftoverReason(k: number): LeftoverReason {
    if (this.servable[k]) return 'no-room';
    const open = this.open[k]!;
    const close = this.close[k]!;
    const windowFits = this.days.some(
      (day, d) => this.allowed(k, d) && close >= day.startMin && open <= day.endMin,
    );
    return windowFits ? 'too-far' : 'window-outside-hours';
  }
}

/** Visits of one day per route (stop nodes per day), the rest left over. */
export type DayRoutes = number[][];

/** Assigned stop count and travel minutes: the plan's score, lower travel and more stops win. */
export interface PlanScore {
  visited: number;
  travelMin: number;
}

export function scoreOf(problem: PlanProblem, routes: DayRoutes): PlanScore {
  let visited = 0;
  let travelMin = 0;
  for (const route of routes) {
    if (route.length === 0) continue;
    visited += route.length;
    travelMin += problem.routeTravel(route);
  }
  return { visited, travelMin };
}

/** Whether `a` is a better plan than `b`: more visits, else less travel. */
export function isBetter(a: PlanScore, b: PlanScore): boolean {
  if (a.visited !== b.visited) return a.visited > b.visited;
  return a.travelMin < b.travelMin - 1e-9;
}

/** The timeline of every day, km and leftovers: what the rep sees. */
export function describePlan(problem: PlanProblem, routes: DayRoutes): WeekPlan {
  const planned = new Uint8Array(problem.size);
  const days = routes.map((route, d): PlannedDay => {
    let at = 0;
    let time = problem.days[d]!.startMin;
    let km = 0;
    let travelMin = 0;
    const visits = route.map((k): PlannedVisit => {
      planned[k] = 1;
      const leg = problem.t(at, k);
      km += problem.km[at * problem.size + k]!;
      travelMin += leg;
      const arriveMin = time + leg;
      const startMin = Math.max(arriveMin, problem.open[k]!);
      time = startMin + problem.service[k]!;
      at = k;
      return { id: problem.stops[k - 1]!.id, arriveMin, startMin, departMin: time, travelMin: leg };
    });
    if (route.length > 0) {
      km += problem.km[at * problem.size + problem.endNode]!;
      travelMin += problem.t(at, problem.endNode);
    }
    const returnMin = route.length > 0 ? time + problem.t(at, problem.endNode) : time;
    return { visits, km, travelMin, returnMin };
  });
  const leftover: WeekPlan['leftover'] = [];
  for (let k = 1; k <= problem.n; k++) {
    if (!planned[k])
      leftover.push({ id: problem.stops[k - 1]!.id, reason: problem.leftoverReason(k) });
  }
  return {
    days,
    leftover,
    km: days.reduce((sum, day) => sum + day.km, 0),
    travelMin: days.reduce((sum, day) => sum + day.travelMin, 0),
  };
}

/**
 * The baseline: day by day, from where the rep is, drive to the nearest customer that can still
 * be visited in its window and leave time to reach the end point; close the day when none can.
 */
export function greedyRoutes(problem: PlanProblem): DayRoutes {
  const used = new Uint8Array(problem.size);
  return problem.days.map((day, d) => {
    const route: number[] = [];
    let at = 0;
    let time = day.startMin;
    for (;;) {
      let best = -1;
      let bestLeg = Infinity;
      for (let k = 1; k <= problem.n; k++) {
        if (used[k] || !problem.servable[k] || !problem.allowed(k, d)) continue;
        const leg = problem.t(at, k);
        if (leg >= bestLeg) continue;
        const begin = Math.max(time + leg, problem.open[k]!);
        if (begin > problem.close[k]!) continue;
        if (begin + problem.service[k]! + problem.t(k, problem.endNode) > day.endMin + 1e-9)
          continue;
        best = k;
        bestLeg = leg;
      }
      if (best < 0) return route;
      used[best] = 1;
      time = Math.max(time + bestLeg, problem.open[best]!) + problem.service[best]!;
      at = best;
      route.push(best);
    }
  });
}
