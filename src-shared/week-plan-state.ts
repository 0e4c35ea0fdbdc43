// A week plan being searched (week-plan-search.ts, week-plan-local.ts): each day's route with
// the two arrays that make a feasibility check O(1) at a seam, refreshed whenever a route changes:
// - depart[i]: the earliest time the rep leaves position i (0 = the start point, i = route[i-1]);
// - latest[i]: the latest arrival at position i that keeps the rest of the day feasible (every
//   later window and the day's end); latest[m + 1] is the day's end of work.
// Joining "leave a at time x, visit some stops, arrive at position j" is feasible when every
// visited window is kept and the arrival at j is no later than latest[j] (waiting when early only
// costs time, never feasibility). Cost: travel minutes plus a penalty per customer left out that
// is larger than any travel a week can have, so more visits always win, then less travel.
import type { DayRoutes, PlanProblem } from './week-plan';

/** Minutes a servable customer left out costs: more than any week's travel (31 x 24 h). */
export const LEFTOUT_PENALTY = 1e6;
const EPS = 1e-9;

export class PlanState {
  readonly routes: number[][];
  /** Day of each node, -1 when not planned. */
  readonly dayOf: Int32Array;
  /** 1-based position of each planned node in its day's route. */
  readonly pos: Int32Array;
  readonly depart: Float64Array[];
  readonly latest: Float64Array[];
  /** Travel minutes of each day, and minutes on site. */
  readonly travel: Float64Array;
  readonly onSite: Float64Array;
  /** How much a minute on site counts in cost(): 1 while the search is after more visits (short
   * visits leave room for one more), 0 when it is after less travel. */
  onSiteWeight = 0;
  /** The most time a visit could take when added to each day (service plus detour): a quick no. */
  readonly room: Float64Array;
  /** Position of the last pinned stop of each day (0: none), for moves of a route's tail. */
  readonly lastPinned: Int32Array;
  /** Search bookkeeping: a counter bumped by every change, and when each day last changed. */
  clock = 1;
  /** The clock when the plan was last a local optimum (week-plan-local.ts). */
  lsStamp = 0;
  readonly changedAt: Int32Array;
  /** Planned visits, and per day (to keep the count when a route is refreshed). */
  planned = 0;
  readonly lengths: Int32Array;
  readonly servableCount: number;

  constructor(
    readonly p: PlanProblem,
    routes: DayRoutes,
    from?: PlanState,
  ) {
    const days = p.days.length;
    this.routes = routes.map((r) => r.slice());
    this.dayOf = from ? from.dayOf.slice() : new Int32Array(p.size).fill(-1);
    this.pos = from ? from.pos.slice() : new Int32Array(p.size);
    this.depart = from ? from.depart.map((a) => a.slice()) : [];
    this.latest = from ? from.latest.map((a) => a.slice()) : [];
    this.travel = from ? from.travel.slice() : new Float64Array(days);
    this.onSite = from ? from.onSite.slice() : new Float64Array(days);
    this.lastPinned = from ? from.lastPinned.slice() : new Int32Array(days);
    this.room = from ? from.room.slice() : new Float64Array(days);
    this.changedAt = from ? from.changedAt.slice() : new Int32Array(days);
    this.lengths = from ? from.lengths.slice() : new Int32Array(days);
    this.servableCount = from ? from.servableCount : p.servable.reduce((a, b) => a + b, 0);
    if (from) {
      this.clock = from.clock;
      this.lsStamp = from.lsStamp;
      this.onSiteWeight = from.onSiteWeight;
      this.planned = from.planned;
      return;
    }
    for (let d = 0; d < days; d++) {
      this.depart.push(new Float64Array(p.n + 2));
      this.latest.push(new Float64Array(p.n + 2));
      this.refresh(d);
    }
  }

  clone(): PlanState {
    return new PlanState(this.p, this.routes, this);
  }

  /** Travel minutes of the week. */
  travelMin(): number {
    let sum = 0;
    for (let d = 0; d < this.travel.length; d++) sum += this.travel[d]!;
    return sum;
  }

  /** The plan's cost: travel (and weighted on-site) minutes plus LEFTOUT_PENALTY per customer left out. */
  cost(): number {
    let onSite = 0;
    if (this.onSiteWeight > 0) for (const minutes of this.onSite) onSite += minutes;
    return (
      this.travelMin() +
      this.onSiteWeight * onSite +
      LEFTOUT_PENALTY * (this.servableCount - this.planned)
    );
  }

  /** Node at position i of day d: 0 the start, m + 1 the end. */
  node(d: number, i: number): number {
    const route = this.routes[d]!;
    return i === 0 ? 0 : i > route.length ? this.p.endNode : route[i - 1]!;
  }

  /** Recomputes day d's schedule arrays after its route changed. */
  refresh(d: number): void {
    const p = this.p;
    const route = this.routes[d]!;
    const m = route.length;
    const depart = this.depart[d]!;
    const latest = this.latest[d]!;
    const hours = p.days[d]!;
    depart[0] = hours.startMin;
    let at = 0;
    let travel = 0;
    let onSite = 0;
    let lastPinned = 0;
    for (let i = 1; i <= m; i++) {
      const k = route[i - 1]!;
      const leg = p.t(at, k);
      travel += leg;
      onSite += p.service[k]!;
      depart[i] = Math.max(depart[i - 1]! + leg, p.open[k]!) + p.service[k]!;
      this.dayOf[k] = d;
      this.pos[k] = i;
      if (p.pinned[k]! >= 0) lastPinned = i;
      at = k;
    }
    this.travel[d] = m > 0 ? travel + p.t(at, p.endNode) : 0;
    this.onSite[d] = onSite;
    latest[m + 1] = hours.endMin;
    for (let i = m; i >= 1; i--) {
      const k = route[i - 1]!;
      const next = i === m ? p.endNode : route[i]!;
      latest[i] = Math.min(p.close[k]!, latest[i + 1]! - p.t(k, next) - p.service[k]!);
    }
    this.lastPinned[d] = lastPinned;
    let room = -Infinity;
    for (let i = 0; i <= m; i++) {
      const a = i === 0 ? 0 : route[i - 1]!;
      const b = i === m ? p.endNode : route[i]!;
      room = Math.max(room, latest[i + 1]! - depart[i]! - (m > 0 ? p.t(a, b) : 0));
    }
    this.room[d] = room;
    this.planned += m - this.lengths[d]!;
    this.lengths[d] = m;
    this.changedAt[d] = ++this.clock;
  }

  /** Leaving node `at` at `time`, the time the rep leaves `k`; Infinity when its window is missed. */
  visit(time: number, at: number, k: number): number {
    const p = this.p;
    const begin = Math.max(time + p.t(at, k), p.open[k]!);
    return begin > p.close[k]! + EPS ? Infinity : begin + p.service[k]!;
  }

  /** Whether leaving `at` at `time` still reaches position j of day d in time. */
  reaches(d: number, time: number, at: number, j: number): boolean {
    return time + this.p.t(at, this.node(d, j)) <= this.latest[d]![j]! + EPS;
  }

  /** Whether `k` may go on day d and the day has room for its visit somewhere (a quick no). */
  mayFit(k: number, d: number): boolean {
    return this.p.allowed(k, d) && this.p.service[k]! <= this.room[d]! + EPS;
  }

  /** Added travel of visiting `k` right after position `i` of day d; Infinity when it does not fit. */
  insertionCost(k: number, d: number, i: number): number {
    const p = this.p;
    if (!this.mayFit(k, d)) return Infinity;
    const a = this.node(d, i);
    const time = this.visit(this.depart[d]![i]!, a, k);
    if (!this.reaches(d, time, k, i + 1)) return Infinity;
    const b = this.node(d, i + 1);
    // An empty day travels nothing (not start to end), so its first visit adds both legs.
    return p.t(a, k) + p.t(k, b) - (this.routes[d]!.length > 0 ? p.t(a, b) : 0);
  }

  /**
   * Inserts `k` where it adds the least travel (on day `only` when given), passing over a place
   * when `skip()` says so; whether it fit.
   */
  insertCheapest(k: number, skip?: () => boolean, only?: number): boolean {
    let bestCost = Infinity;
    let bestDay = -1;
    let bestAt = -1;
    const last = only ?? this.routes.length - 1;
    for (let d = only ?? 0; d <= last; d++) {
      if (!this.mayFit(k, d)) continue;
      for (let i = 0; i <= this.routes[d]!.length; i++) {
        const cost = this.insertionCost(k, d, i);
        if (cost < bestCost && !skip?.()) {
          bestCost = cost;
          bestDay = d;
          bestAt = i;
        }
      }
    }
    if (bestDay < 0) return false;
    this.routes[bestDay]!.splice(bestAt, 0, k);
    this.refresh(bestDay);
    return true;
  }

  /** Takes out the stops flagged in `out` (unchanged days are not touched). */
  removeAll(out: Uint8Array): void {
    for (let d = 0; d < this.routes.length; d++) {
      const route = this.routes[d]!;
      if (!route.some((k) => out[k])) continue;
      this.routes[d] = route.filter((k) => {
        if (!out[k]) return true;
        this.dayOf[k] = -1;
        return false;
      });
      this.refresh(d);
    }
  }

  /** Replaces day d's route (stops that left it must be re-planned or marked -1 by the caller). */
  setRoute(d: number, route: number[]): void {
    this.routes[d] = route;
    this.refresh(d);
  }

  /** Marks `k` as not planned once the caller took it out of its route. */
  unplan(k: number): void {
    this.dayOf[k] = -1;
  }

  /** The plan as day routes, copied. */
  snapshot(): DayRoutes {
    return this.routes.map((r) => r.slice());
  }
}
