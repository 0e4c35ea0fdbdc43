// Ejection chains for the week planner (week-plan-search.ts): a customer left out takes the
// place of a near planned one, who moves to any day's cheapest place; when that one fits nowhere
// either, it in turn takes the place of one of its near planned customers, who moves anywhere.
// A chain is kept only when every customer in it ends up planned: one more visit.
import type { PlanState } from './week-plan-state';

/** Takes planned `v` out of its day. */
function takeOut(st: PlanState, v: number): void {
  const d = st.dayOf[v]!;
  st.setRoute(
    d,
    st.routes[d]!.filter((k) => k !== v),
  );
  st.unplan(v);
}

/**
 * `u` (not planned) in place of planned `v` on v's day, then `v` anywhere (depth 1) or, failing
 * that and `depth` > 1, `v` in place of one of its neighbours the same way. Whether it all fit;
 * when not, the plan is as before.
 */
function chain(st: PlanState, u: number, v: number, nbrs: Int32Array[], depth: number): boolean {
  const d = st.dayOf[v]!;
  if (!st.p.allowed(u, d)) return false;
  const saved = st.routes.map((r) => r.slice());
  takeOut(st, v);
  if (!st.insertCheapest(u, undefined, d)) {
    restore(st, saved, u);
    return false;
  }
  if (st.insertCheapest(v)) return true;
  if (depth > 1) {
    for (const w of nbrs[v]!) {
      const e = st.dayOf[w]!;
      if (e < 0 || e === d) continue;
      if (chain(st, v, w, nbrs, depth - 1)) return true;
    }
  }
  restore(st, saved, u);
  return false;
}

/** Puts every day back as `saved` and marks `u` not planned. */
function restore(st: PlanState, saved: number[][], u: number): void {
  for (let e = 0; e < saved.length; e++) st.setRoute(e, saved[e]!.slice());
  st.unplan(u);
}

/**
 * Tries a chain for every servable customer left out, through its nearest planned customers;
 * the number of visits gained.
 */
export function ejectionChains(
  st: PlanState,
  servable: readonly number[],
  nbrs: Int32Array[],
  depth = 2,
): number {
  let gained = 0;
  for (const u of servable) {
    if (st.dayOf[u]! >= 0) continue;
    for (const v of nbrs[u]!) {
      if (st.dayOf[v]! < 0) continue;
      if (chain(st, u, v, nbrs, depth)) {
        gained++;
        break;
      }
    }
  }
  return gained;
}
