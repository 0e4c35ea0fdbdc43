// Local search of a week plan (week-plan-state.ts) to a local optimum of these moves:
// - within a day (week-plan-day.ts): 2-opt and Or-opt, best improvement until none improves;
// - between days, for each customer and each of its nearest customers on another day: relocate it
//   next to that customer (before or after), swap the two, exchange the two days' tails after
//   (or from) them (2-opt*), or move it to an empty day; the best of these per customer;
// - for a customer left out: insert it where it adds the least travel, else put it in the place
//   of a near customer that then fits on another day (one more visit), else in the place of a near
//   customer when that shortens the day (the other one is left out instead).
// Feasibility is O(1) at a seam from the state's depart/latest arrays (a tail exchange between
// days with different hours walks the tail). A pinned customer only ever moves within its day.
// Customer/day pairs that have not changed since the last local optimum are skipped.
import type { PlanProblem } from './week-plan';
import { improveDay } from './week-plan-day';
import type { PlanState } from './week-plan-state';

const EPS = 1e-7;

/** Each servable stop's `count` nearest servable stops, nearest first. */
export function neighbourLists(p: PlanProblem, count: number): Int32Array[] {
  const lists: Int32Array[] = [new Int32Array(0)];
  const ids = new Int32Array(count);
  const dist = new Float64Array(count);
  for (let u = 1; u <= p.n; u++) {
    let size = 0;
    if (p.servable[u]) {
      for (let v = 1; v <= p.n; v++) {
        if (v === u || !p.servable[v]) continue;
        const d = p.t(u, v);
        if (size === count && d >= dist[size - 1]!) continue;
        let at = size < count ? size++ : size - 1;
        while (at > 0 && dist[at - 1]! > d) {
          dist[at] = dist[at - 1]!;
          ids[at] = ids[at - 1]!;
          at--;
        }
        dist[at] = d;
        ids[at] = v;
      }
    }
    lists.push(ids.slice(0, size));
  }
  return lists;
}

/** Runs the moves until none improves; `order` is the servable stops in the order to try them. */
export function localSearch(st: PlanState, nbrs: Int32Array[], order: readonly number[]): void {
  const tested = new Int32Array(st.p.size).fill(st.lsStamp);
  const intraAt = new Int32Array(st.routes.length).fill(st.lsStamp);
  let improved = true;
  while (improved) {
    improved = false;
    for (const u of order) {
      const stamp = st.clock;
      const moved =
        st.dayOf[u]! >= 0
          ? improveVisited(st, u, nbrs[u]!, tested[u]!)
          : improveLeftOut(st, u, nbrs[u]!, tested[u]!);
      if (moved) improved = true;
      else tested[u] = stamp;
    }
    for (let d = 0; d < st.routes.length; d++) {
      if (st.changedAt[d]! <= intraAt[d]!) continue;
      if (improveDay(st, d)) improved = true;
      intraAt[d] = st.clock;
    }
  }
  st.lsStamp = st.clock;
}

/** Travel change of a day whose route goes from `before` to `after` stops, for the empty day. */
function emptyFix(p: PlanProblem, before: number, after: number): number {
  const idle = p.t(0, p.endNode);
  return (after === 0 ? -idle : 0) - (before === 0 ? -idle : 0);
}

/** Leaving `at` at `time` and following day `from`'s route from position `q` to its end, whether day `to` ends in time. */
function tailFits(
  st: PlanState,
  to: number,
  time: number,
  at: number,
  from: number,
  q: number,
): boolean {
  const p = st.p;
  const route = st.routes[from]!;
  const endMin = p.days[to]!.endMin;
  if (q > route.length) return time + p.t(at, p.endNode) <= endMin + 1e-9;
  if (endMin === p.days[from]!.endMin) return st.reaches(from, time, at, q);
  for (let i = q; i <= route.length; i++) {
    const k = route[i - 1]!;
    time = st.visit(time, at, k);
    at = k;
  }
  return time + p.t(at, p.endNode) <= endMin + 1e-9;
}

const RELOCATE = 1;
const SWAP = 2;
const TAILS_AFTER = 3;
const TAILS_FROM = 4;

function improveVisited(st: PlanState, u: number, nbrs: Int32Array, tested: number): boolean {
  const p = st.p;
  const A = st.dayOf[u]!;
  const i = st.pos[u]!;
  const mA = st.routes[A]!.length;
  const pu = st.node(A, i - 1);
  const nu = st.node(A, i + 1);
  const gain = p.t(pu, u) + p.t(u, nu) - p.t(pu, nu) - emptyFix(p, 1, mA === 1 ? 0 : 1);
  let bestDelta = -EPS;
  let kind = 0;
  let bestV = -1;
  let bestDay = -1;
  let bestAt = -1;
  const changedA = st.changedAt[A]! > tested;
  for (let n = 0; n < nbrs.length; n++) {
    const v = nbrs[n]!;
    const B = st.dayOf[v]!;
    if (B < 0 || B === A || (!changedA && st.changedAt[B]! <= tested)) continue;
    const j = st.pos[v]!;
    const mB = st.routes[B]!.length;
    const pv = st.node(B, j - 1);
    const nv = st.node(B, j + 1);
    if (p.allowed(u, B)) {
      for (let at = j - 1; at <= j; at++) {
        const delta = st.insertionCost(u, B, at) - gain;
        if (delta < bestDelta) {
          bestDelta = delta;
          kind = RELOCATE;
          bestDay = B;
          bestAt = at;
        }
      }
      if (p.allowed(v, A)) {
        const delta =
          p.t(pu, v) +
          p.t(v, nu) -
          p.t(pu, u) -
          p.t(u, nu) +
          p.t(pv, u) +
          p.t(u, nv) -
          p.t(pv, v) -
          p.t(v, nv);
        if (
          delta < bestDelta &&
          st.reaches(A, st.visit(st.depart[A]![i - 1]!, pu, v), v, i + 1) &&
          st.reaches(B, st.visit(st.depart[B]![j - 1]!, pv, u), u, j + 1)
        ) {
          bestDelta = delta;
          kind = SWAP;
          bestV = v;
        }
      }
    }
    // A[..i] + B[j+1..] and B[..j] + A[i+1..]
    if (st.lastPinned[B]! <= j && st.lastPinned[A]! <= i) {
      const delta =
        p.t(u, nv) +
        p.t(v, nu) -
        p.t(u, nu) -
        p.t(v, nv) +
        emptyFix(p, mA, i + mB - j) +
        emptyFix(p, mB, j + mA - i);
      if (
        delta < bestDelta &&
        tailFits(st, A, st.depart[A]![i]!, u, B, j + 1) &&
        tailFits(st, B, st.depart[B]![j]!, v, A, i + 1)
      ) {
        bestDelta = delta;
        kind = TAILS_AFTER;
        bestV = v;
      }
    }
    // A[..i-1] + B[j..] and B[..j-1] + A[i..]
    if (st.lastPinned[B]! <= j - 1 && st.lastPinned[A]! <= i - 1) {
      const delta =
        p.t(pu, v) +
        p.t(pv, u) -
        p.t(pu, u) -
        p.t(pv, v) +
        emptyFix(p, mA, i - 1 + mB - j + 1) +
        emptyFix(p, mB, j - 1 + mA - i + 1);
      if (
        delta < bestDelta &&
        tailFits(st, A, st.depart[A]![i - 1]!, pu, B, j) &&
        tailFits(st, B, st.depart[B]![j - 1]!, pv, A, i)
      ) {
        bestDelta = delta;
        kind = TAILS_FROM;
        bestV = v;
      }
    }
  }
  for (let B = 0; B < st.routes.length; B++) {
    if (B === A || st.routes[B]!.length > 0 || (!changedA && st.changedAt[B]! <= tested)) continue;
    const delta = st.insertionCost(u, B, 0) - gain;
    if (delta < bestDelta) {
      bestDelta = delta;
      kind = RELOCATE;
      bestDay = B;
      bestAt = 0;
    }
  }
  if (kind === 0) return false;
  const routeA = st.routes[A]!;
  if (kind === RELOCATE) {
    routeA.splice(i - 1, 1);
    st.routes[bestDay]!.splice(bestAt, 0, u);
    st.refresh(A);
    st.refresh(bestDay);
    return true;
  }
  const B = st.dayOf[bestV]!;
  const j = st.pos[bestV]!;
  const routeB = st.routes[B]!;
  if (kind === SWAP) {
    routeA[i - 1] = bestV;
    routeB[j - 1] = u;
  } else {
    const cutA = kind === TAILS_AFTER ? i : i - 1;
    const cutB = kind === TAILS_AFTER ? j : j - 1;
    st.routes[A] = [...routeA.slice(0, cutA), ...routeB.slice(cutB)];
    st.routes[B] = [...routeB.slice(0, cutB), ...routeA.slice(cutA)];
  }
  st.refresh(A);
  st.refresh(B);
  return true;
}

function improveLeftOut(st: PlanState, u: number, nbrs: Int32Array, tested: number): boolean {
  const p = st.p;
  let latestChange = 0;
  for (let d = 0; d < st.routes.length; d++)
    latestChange = Math.max(latestChange, st.changedAt[d]!);
  if (latestChange <= tested) return false;
  if (st.insertCheapest(u)) return true;
  // No room anywhere: take the place of a near customer, best when that one fits on another day
  // (one more visit), else when it travels less (that one is left out instead).
  let bestDelta = -EPS;
  let bestV = -1;
  let ejectDelta = Infinity;
  let ejectV = -1;
  let ejectDay = -1;
  let ejectAt = -1;
  for (let n = 0; n < nbrs.length; n++) {
    const v = nbrs[n]!;
    const B = st.dayOf[v]!;
    if (B < 0 || !p.allowed(u, B) || p.pinned[v]! >= 0) continue;
    const j = st.pos[v]!;
    const pv = st.node(B, j - 1);
    const nv = st.node(B, j + 1);
    const delta =
      p.t(pv, u) +
      p.t(u, nv) -
      p.t(pv, v) -
      p.t(v, nv) +
      st.onSiteWeight * (p.service[u]! - p.service[v]!);
    if (!st.reaches(B, st.visit(st.depart[B]![j - 1]!, pv, u), u, j + 1)) continue;
    if (delta < bestDelta) {
      bestDelta = delta;
      bestV = v;
    }
    for (let d = 0; d < st.routes.length; d++) {
      if (d === B || !st.mayFit(v, d)) continue;
      for (let i = 0; i <= st.routes[d]!.length; i++) {
        const total = delta + st.insertionCost(v, d, i);
        if (total < ejectDelta) {
          ejectDelta = total;
          ejectV = v;
          ejectDay = d;
          ejectAt = i;
        }
      }
    }
  }
  if (ejectV >= 0) {
    const B = st.dayOf[ejectV]!;
    st.routes[B]![st.pos[ejectV]! - 1] = u;
    st.routes[ejectDay]!.splice(ejectAt, 0, ejectV);
    st.refresh(B);
    st.refresh(ejectDay);
    return true;
  }
  if (bestV < 0) return false;
  const B = st.dayOf[bestV]!;
  st.routes[B]![st.pos[bestV]! - 1] = u;
  st.unplan(bestV);
  st.refresh(B);
  return true;
}
