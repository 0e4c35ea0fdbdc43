// Browser side of the field-day bench's Nearby numbers (scripts/bench/field-day.ts): the app's
// own NearbyState over n customers, its search running in the real module worker, timed in the
// page as the rep would wait for it (from the call to the answer on the UI thread).
import { positionOf, type LngLat } from '../../../src-shared';
import { mulberry32 } from '../../../src-shared/prng';
import {
  NearbyState,
  NEARBY_RADII_KM,
} from '../../../src-renderer/src/features/nearby/nearby.svelte';
import type { CustomerView } from '../../../src-renderer/src/types';
import { percentile } from './bench.page';
import { makeCustomers } from './fixtures';

function views(n: number, seed: number): CustomerView[] {
  const customers = makeCustomers(n, seed) as CustomerView[];
  for (const c of customers) {
    c.pending = false;
    c.position = positionOf(c);
  }
  return customers;
}

export const nearbyScenarios = {
  /**
   * `count` searches (each around a random mapped customer, radius one of the picker's) through
   * the worker: their round trips' p95; `columns_ms`, the UI thread's part of a new data version
   * (positions into columns, handed over); `rebuild_ms`, a new version's first answer (the
   * worker rebuilds its index first).
   */
  async benchNearby(n: number, count: number, seed: number) {
    const customers = views(n, seed);
    const mapped = customers.filter((c) => c.position !== null);
    const byIndex = new Map(customers.map((c) => [c.id, c]));
    const byId = (id: string) => byIndex.get(id);
    const state = new NearbyState();
    const r = mulberry32(seed);
    const rebuilds: number[] = [];
    const columns: number[] = [];
    const times: number[] = [];
    let shown = 0;
    let total = 0;
    // The worker starts (its module loads) with a first search, not counted.
    state.open({ kind: 'point', at: mapped[0]!.position as LngLat });
    await state.search(customers, byId);
    // Three data versions (as after edits), each searched first while the worker rebuilds.
    for (let version = 0; version < 3; version++) {
      const list = [...customers];
      const at = mapped[Math.floor(r() * mapped.length)]!.position as LngLat;
      state.open({ kind: 'point', at });
      state.radiusKm = 10;
      const t0 = performance.now();
      const answered = state.search(list, byId);
      columns.push(performance.now() - t0);
      await answered;
      rebuilds.push(performance.now() - t0);
      for (let q = 0; q < count / 3; q++) {
        const centre = mapped[Math.floor(r() * mapped.length)]!;
        state.open({ kind: 'customer', id: centre.id });
        state.radiusKm = NEARBY_RADII_KM[Math.floor(r() * NEARBY_RADII_KM.length)]!;
        const t = performance.now();
        await state.search(list, byId);
        times.push(performance.now() - t);
        const view = state.view(byId);
        if (view.state === 'ready') {
          shown += view.result.hits.length;
          total += view.result.total;
        }
      }
    }
    state.dispose();
    return {
      p95_ms: percentile(times, 95),
      columns_ms: Math.max(...columns),
      rebuild_ms: Math.max(...rebuilds),
      mean_shown: shown / times.length,
      mean_total: total / times.length,
    };
  },
};
