// Local search within one day of a week plan (week-plan-local.ts runs it on every day that
// changed): 2-opt (reverse a stretch) and Or-opt (move 1-3 consecutive visits elsewhere in the
// day, either way round), best improvement until no move improves. A reversed or moved stretch is
// summarised as (a, b, L): arriving at t, the rep leaves its last visit at max(t + a, b), and it
// is feasible when t <= L; stretches join in O(1), so each move is checked in O(1) (Or-opt walks
// its 1-3 moved visits).
import type { PlanState } from './week-plan-state';

const EPS = 1e-7;

/** Leaving `at` at `time`, the time the rep leaves the last of positions i..i+l-1 of `route`. */
function walkStretch(
  st: PlanState,
  route: number[],
  i: number,
  l: number,
  reversed: boolean,
  time: number,
  at: number,
): number {
  for (let x = 0; x < l; x++) {
    const k = route[reversed ? i + l - 2 - x : i - 1 + x]!;
    time = st.visit(time, at, k);
    at = k;
  }
  return time;
}

/** Day d's route after moving positions i..i+l-1 (reversed or not) to just after position q. */
function movedStretch(
  route: number[],
  i: number,
  l: number,
  reversed: boolean,
  q: number,
): number[] {
  const stretch = route.slice(i - 1, i + l - 1);
  if (reversed) stretch.reverse();
  return q >= i + l
    ? [...route.slice(0, i - 1), ...route.slice(i + l - 1, q), ...stretch, ...route.slice(q)]
    : [...route.slice(0, q), ...stretch, ...route.slice(q, i - 1), ...route.slice(i + l - 1)];
}

/** 2-opt and Or-opt within day d, best improvement until none; whether the day changed. */
export function improveDay(st: PlanState, d: number): boolean {
  const p = st.p;
  let changed = false;
  for (;;) {
    const route = st.routes[d]!;
    const m = route.length;
    const depart = st.depart[d]!;
    let bestDelta = -EPS;
    // The best move: 2-opt (l = 0) reverses positions i..q; Or-opt moves i..i+l-1 after q.
    let bestI = 0;
    let bestL = 0;
    let bestQ = 0;
    let bestReversed = false;
    // 2-opt: reverse positions i..j; the reversed stretch as (a, b, L), grown at its front.
    for (let i = 1; i < m; i++) {
      const first = route[i - 1]!;
      let a = p.service[first]!;
      let b = p.open[first]! + a;
      let L = p.close[first]!;
      const before = st.node(d, i - 1);
      for (let j = i + 1; j <= m; j++) {
        const k = route[j - 1]!;
        const tau = p.t(k, route[j - 2]!);
        const head = p.open[k]! + p.service[k]! + tau;
        if (head > L + 1e-9) break;
        L = Math.min(p.close[k]!, L - tau - p.service[k]!);
        b = Math.max(head + a, b);
        a = p.service[k]! + tau + a;
        const after = st.node(d, j + 1);
        const delta = p.t(before, k) + p.t(first, after) - p.t(before, first) - p.t(k, after);
        if (delta >= bestDelta) continue;
        const arrive = depart[i - 1]! + p.t(before, k);
        if (arrive > L + 1e-9 || !st.reaches(d, Math.max(arrive + a, b), first, j + 1)) continue;
        bestDelta = delta;
        bestI = i;
        bestL = 0;
        bestQ = j;
      }
    }
    // Or-opt: move positions i..i+l-1 (as is or reversed) between positions q and q + 1.
    for (let l = 1; l <= 3; l++) {
      for (let i = 1; i + l - 1 <= m; i++) {
        const s1 = route[i - 1]!;
        const sl = route[i + l - 2]!;
        const prev = st.node(d, i - 1);
        const next = st.node(d, i + l);
        const removal = p.t(prev, s1) + p.t(sl, next) - p.t(prev, next);
        // Forward: the stretch i+l..q now comes first.
        let time = depart[i - 1]!;
        let at = prev;
        for (let q = i + l; q <= m; q++) {
          const k = route[q - 1]!;
          time = st.visit(time, at, k);
          at = k;
          if (time === Infinity) break;
          const after = st.node(d, q + 1);
          for (let r = 0; r < (l > 1 ? 2 : 1); r++) {
            const f = r ? sl : s1;
            const e = r ? s1 : sl;
            const delta = -removal + p.t(at, f) + p.t(e, after) - p.t(at, after);
            if (delta >= bestDelta) continue;
            if (!st.reaches(d, walkStretch(st, route, i, l, r === 1, time, at), e, q + 1)) continue;
            bestDelta = delta;
            bestI = i;
            bestL = l;
            bestQ = q;
            bestReversed = r === 1;
          }
        }
        // Backward: the stretch q+1..i-1 now comes after the moved one, summarised as (a, b, L).
        let a = 0;
        let b = -Infinity;
        let L = Infinity;
        let midFirst = -1;
        for (let q = i - 2; q >= 0; q--) {
          const k = route[q]!;
          if (midFirst < 0) {
            a = p.service[k]!;
            b = p.open[k]! + a;
            L = p.close[k]!;
          } else {
            const tau = p.t(k, midFirst);
            const head = p.open[k]! + p.service[k]! + tau;
            if (head > L + 1e-9) break;
            L = Math.min(p.close[k]!, L - tau - p.service[k]!);
            b = Math.max(head + a, b);
            a = p.service[k]! + tau + a;
          }
          midFirst = k;
          const before = st.node(d, q);
          for (let r = 0; r < (l > 1 ? 2 : 1); r++) {
            const f = r ? sl : s1;
            const e = r ? s1 : sl;
            const delta = -removal + p.t(before, f) + p.t(e, midFirst) - p.t(before, midFirst);
            if (delta >= bestDelta) continue;
            const arrive =
              walkStretch(st, route, i, l, r === 1, depart[q]!, before) + p.t(e, midFirst);
            if (arrive > L + 1e-9) continue;
            if (!st.reaches(d, Math.max(arrive + a, b), route[i - 2]!, i + l)) continue;
            bestDelta = delta;
            bestI = i;
            bestL = l;
            bestQ = q;
            bestReversed = r === 1;
          }
        }
      }
    }
    if (bestI === 0) return changed;
    st.setRoute(
      d,
      bestL === 0
        ? [
            ...route.slice(0, bestI - 1),
            ...route.slice(bestI - 1, bestQ).reverse(),
            ...route.slice(bestQ),
          ]
        : movedStretch(route, bestI, bestL, bestReversed, bestQ),
    );
    changed = true;
  }
}
