// Browser side of test/renderer/customer-feed.test.ts: the real cache worker (CacheWriter) writes
// an account while the page's CustomerFeed follows it, as the app runs them. Every state the feed
// publishes is recorded by an effect, so the test sees each one, not the ones a poll happened to hit.
import type { Op } from '../../../src-shared';
import { CacheWriter } from '../../../src-renderer/src/cache/cache-writer-page';
import { CustomerCache } from '../../../src-renderer/src/cache/customer-cache';
import { CustomerFeed } from '../../../src-renderer/src/cache/customer-feed.svelte';
import type { CustomerRow } from '../../../src-renderer/src/cache/schema';
import { snapshotOf } from './cache.page';
import { makeCustomers } from './fixtures';

const TEMP = 'tmp_00000000-0000-4000-8000-0000000000f1';

/** One published state: its size, the name prefixes of records no op touched, and its order. */
type Seen = { count: number; prefixes: string[]; ordered: boolean };

function summary(rows: CustomerRow[]): Seen {
  const untouched = rows.filter((c) => c.id !== 'c1' && c.id !== TEMP);
  return {
    count: rows.length,
    prefixes: [...new Set(untouched.map((c) => c.name.slice(0, 2)))].sort(),
    ordered: rows.every((c, i) => i === 0 || rows[i - 1]!.id < c.id),
  };
}

function op(seq: number, fields: Pick<Op, 'kind' | 'target' | 'payload'>): Op {
  return {
    opId: `feed-op${seq}`,
    accountKey: 'acct',
    createdAt: 1_700_000_000_000 + seq,
    attempts: 0,
    lastError: null,
    state: 'pending',
    base: null,
    ...fields,
  } as Op;
}

function newCustomer(): Op['payload'] {
  const fields = { ...makeCustomers(1, 77)[0]! } as Record<string, unknown>;
  for (const k of ['id', 'createdAt', 'updatedAt']) delete fields[k];
  return { ...fields, name: 'New local', latitude: 10, longitude: 20 } as Op['payload'];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export const feedScenarios = {
  /**
   * A 12,000-customer snapshot, an edit, a delete and a create, then a 3,000-customer snapshot,
   * all written by the cache worker while the feed follows.
   */
  async follow() {
    const key = `feed-${Math.random()}`;
    const writer = new CacheWriter();
    const cache = await CustomerCache.open(key);
    const feed = new CustomerFeed(cache.db, (rows) => rows);
    const seen: Seen[] = [];
    const stop = $effect.root(() => {
      $effect(() => {
        const rows = feed.current;
        if (rows) seen.push(summary(rows));
      });
    });
    const until = async (test: (rows: CustomerRow[]) => boolean) => {
      for (let i = 0; i < 400 && !(feed.current && test(feed.current)); i++) await sleep(25);
      return feed.current ?? [];
    };
    try {
      await writer.apply({ event: 'data:snapshot', payload: snapshotOf(key, 12_000, 1, 'A:') });
      const first = await until((rows) => rows.length === 12_000);

      const edit = op(1, { kind: 'updateCustomer', target: 'c1', payload: { name: 'Local' } });
      await writer.setPendingOps(key, [edit]);
      const edited = await until((rows) => rows.some((c) => c.name === 'Local'));
      const keptObjects = edited.filter((c, i) => c === first[i]).length;

      await writer.setPendingOps(key, [
        edit,
        op(2, { kind: 'deleteCustomer', target: 'c2', payload: null }),
        op(3, { kind: 'createCustomer', target: TEMP, payload: newCustomer() }),
      ]);
      const changed = await until((rows) => rows.some((c) => c.id === TEMP));
      const cachedIds = (await cache.db.customers.toCollection().primaryKeys()) as string[];

      await writer.apply({ event: 'data:snapshot', payload: snapshotOf(key, 3_000, 2, 'B:') });
      const last = await until((rows) => rows.length === 3_000);
      return {
        seen,
        keptObjects,
        editedName: edited.find((c) => c.id === 'c1')?.name ?? null,
        sameAsCache: changed.map((c) => c.id).join() === cachedIds.join(),
        hasDeleted: changed.some((c) => c.id === 'c2'),
        lastKeepsOps: last.find((c) => c.id === 'c1')?.name === 'Local',
      };
    } finally {
      stop();
      feed.dispose();
      await writer.close(key);
      cache.close();
      await cache.destroy();
    }
  },
};

(globalThis as unknown as { feedScenarios: typeof feedScenarios }).feedScenarios = feedScenarios;
