// Browser side of scripts/bench/renderer-cache.ts: cache write vs raw IndexedDB, local search,
// and the app state loaded with N customers (its heap is read from Node through CDP).
import { CustomerCache } from '../../../src-renderer/src/cache/customer-cache';
import { openDatabase } from '../../../src-renderer/src/cache/schema';
import { CustomerIndex } from '../../../src-renderer/src/features/customers/customer-index';
import type { CustomerView } from '../../../src-renderer/src/types';
import { positionOf, type Customer } from '../../../src-shared';
import { loadAppState } from './app-state.page.svelte';
import { makeCustomers, makePlaces, makeTerms, makeUser } from './fixtures';

/** The secondary indices the cache's schema declares on customers (read, never opened). */
const CUSTOMER_INDICES = openDatabase('fieldmap-bench-schema').table('customers').schema.indexes;

/** The cache's customers store (with its own indices), written with nothing but IndexedDB. */
function rawWrite(name: string, customers: Customer[], withIndices: boolean): Promise<number> {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open(name, 1);
    open.onupgradeneeded = () => {
      const store = open.result.createObjectStore('customers', { keyPath: 'id' });
      if (!withIndices) return;
      for (const index of CUSTOMER_INDICES)
        store.createIndex(index.name, index.keyPath ?? index.name, { multiEntry: index.multi });
    };
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const db = open.result;
      const t0 = performance.now();
      const tx = db.transaction('customers', 'readwrite', { durability: 'default' });
      const store = tx.objectStore('customers');
      for (const c of customers) store.put(c);
      tx.oncomplete = () => {
        const ms = performance.now() - t0;
        db.close();
        resolve(ms);
      };
      tx.onerror = () => reject(tx.error);
    };
  });
}

function deleteDb(name: string): Promise<void> {
  return new Promise((resolve) => {
    const req = indexedDB.deleteDatabase(name);
    req.onsuccess = req.onerror = req.onblocked = () => resolve();
  });
}

async function cacheWrite(key: string, customers: Customer[]): Promise<number> {
  const cache = await CustomerCache.open(key);
  const t0 = performance.now();
  await cache.applySnapshot({
    accountKey: key,
    pulledAt: 1,
    user: makeUser(),
    customers,
    routes: makePlaces('route', 10),
    territories: makePlaces('territory', 10),
  });
  const ms = performance.now() - t0;
  await cache.destroy();
  return ms;
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export const benchScenarios = {
  /** Raw and cache writes alternate, twice each; the best of each is kept (same records, same run). */
  async benchWrite(n: number) {
    const customers = makeCustomers(n, 21);
    const raw: number[] = [];
    const rawNoIndex: number[] = [];
    const cache: number[] = [];
    for (let round = 0; round < 2; round++) {
      const id = Math.random().toString(16).slice(2);
      raw.push(await rawWrite(`raw-${id}`, customers, true));
      await deleteDb(`raw-${id}`);
      cache.push(await cacheWrite(`bench-${id}`, customers));
      rawNoIndex.push(await rawWrite(`rawn-${id}`, customers, false));
      await deleteDb(`rawn-${id}`);
    }
    return {
      cache_write_ms: Math.min(...cache),
      raw_idb_write_ms: Math.min(...raw),
      raw_idb_noindex_write_ms: Math.min(...rawNoIndex),
    };
  },

  /** p95 of the list's per-keystroke work (search + filters) over n customers. */
  benchSearch(n: number, count: number, seed: number) {
    const customers = makeCustomers(n, 22) as CustomerView[];
    for (const c of customers) {
      c.pending = false;
      c.position = positionOf(c);
    }
    const t0 = performance.now();
    const index = CustomerIndex.build(customers);
    const buildMs = performance.now() - t0;
    const terms = makeTerms(customers, count, seed);
    const times: number[] = [];
    let hits = 0;
    for (const term of terms) {
      const t = performance.now();
      hits += index.filter({ term, color: null, group: null }).length;
      times.push(performance.now() - t);
    }
    return { search_p95_ms: percentile(times, 95), search_index_build_ms: buildMs, hits };
  },

  /** Fills a cache with n customers and keeps the app's state classes live over it. */
  async loadAppState(n: number) {
    const key = `heap-${Math.random()}`;
    const cache = await CustomerCache.open(key);
    await cache.applySnapshot({
      accountKey: key,
      pulledAt: 1,
      user: makeUser(),
      customers: makeCustomers(n, 23),
      routes: makePlaces('route', 10),
      territories: makePlaces('territory', 10),
    });
    return loadAppState(cache);
  },
};
