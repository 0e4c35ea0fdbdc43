// Browser side of test/renderer/customer-feed.test.ts: the real cache worker (CacheWriter) writes
// an account while the page's CustomerFeed follows it, as the app runs them. Every state the feed
// publishes is recorded by an effect, so the test sees each one, not the ones a poll happened to hit.
import { Dexie, type ObservabilitySet } from 'dexie';
import type { EventOf, Op } from '../../../src-shared';
import { CacheWriter } from '../../../src-renderer/src/cache/cache-writer-page';
import { CustomerCache } from '../../../src-renderer/src/cache/customer-cache';
import { CustomerFeed } from '../../../src-renderer/src/cache/customer-feed.svelte';
import { SnapshotStage } from '../../../src-renderer/src/cache/snapshot-stage';
import { metaOf } from '../../../src-shared/data-pieces';
import { RoadFeed } from './road-feed';
import { DATA_PORT_READY } from '../../../src-shared/data-port';
import type { CustomerRow } from '../../../src-renderer/src/cache/schema';
import { snapshotOf } from './cache.page';
import { eventually, makeCustomers } from './fixtures';

const TEMP = 'tmp_00000000-0000-4000-8000-0000000000b1';

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

/** The real cache worker writing account `key` and the page's feed of it; `until` a state. */
async function followed(key: string) {
  const writer = new CacheWriter();
  const road = new RoadFeed(writer);
  await road.session(key);
  const cache = await CustomerCache.open(key);
  const feed = new CustomerFeed(cache.db, (rows) => rows);
  const until = async (test: (rows: CustomerRow[]) => boolean) => {
    await eventually(() => feed.current !== undefined && test(feed.current));
    return feed.current ?? [];
  };
  const part = `idb://${cache.db.name}/customers/`;
  let heard = 0;
  const onMutated = (parts: ObservabilitySet) => {
    if (parts[part]) heard++;
  };
  Dexie.on('storagemutated', onMutated);
  // A snapshot, and the feed's state once it follows it. A read already under way when the
  // worker commits may see the snapshot before the page hears of the commit (the worker's word
  // comes on a broadcast channel, at its own time); that word starts one more whole read, whose
  // records are new objects. So wait for the word, then for a read begun after it.
  const snapshot = async (payload: EventOf<'data:snapshot'>) => {
    const before = heard;
    await road.data('data:snapshot', payload);
    await eventually(() => heard > before, 'the page to hear of the snapshot');
    await feed.refresh([]);
    return feed.current ?? [];
  };
  const close = async () => {
    Dexie.on('storagemutated').unsubscribe(onMutated);
    feed.dispose();
    await writer.close(key);
    cache.close();
    await cache.destroy();
  };
  return { road, cache, feed, until, snapshot, close };
}

export const feedScenarios = {
  /**
   * A 12,000-customer snapshot, an edit, a delete and a create, then a 3,000-customer snapshot,
   * all written by the cache worker while the feed follows.
   */
  async follow() {
    const key = `feed-${Math.random()}`;
    const { road, cache, feed, until, snapshot, close } = await followed(key);
    const seen: Seen[] = [];
    const stop = $effect.root(() => {
      $effect(() => {
        const rows = feed.current;
        if (rows) seen.push(summary(rows));
      });
    });
    try {
      const first = await snapshot(snapshotOf(key, 12_000, 1, 'A:'));

      const edit = op(1, { kind: 'updateCustomer', target: 'c1', payload: { name: 'Local' } });
      await road.outbox({ accountKey: key, ops: [edit] });
      const edited = await until((rows) => rows.some((c) => c.name === 'Local'));
      const keptObjects = edited.filter((c, i) => c === first[i]).length;

      await road.outbox({
        accountKey: key,
        ops: [
          edit,
          op(2, { kind: 'deleteCustomer', target: 'c2', payload: null }),
          op(3, { kind: 'createCustomer', target: TEMP, payload: newCustomer() }),
        ],
      });
      const changed = await until((rows) => rows.some((c) => c.id === TEMP));
      const cachedIds = (await cache.db.customers.toCollection().primaryKeys()) as string[];

      await road.data('data:snapshot', snapshotOf(key, 3_000, 2, 'B:'));
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
      await close();
    }
  },

  /**
   * A full read while the page's zero-delay timers do not fire: a hidden window's timers are
   * throttled (Chromium runs them at most once a second, and chained ones once a minute), so the
   * feed's yields between pieces must not be timers. Held here until the read is shown.
   */
  async heldTimers() {
    const key = `feed-held-${Math.random()}`;
    const { road, feed, until, close } = await followed(key);
    const real = globalThis.setTimeout;
    const held: Array<() => void> = [];
    try {
      await road.data('data:snapshot', snapshotOf(key, 12_000, 1, 'A:'));
      await until((rows) => rows.length === 12_000);
      globalThis.setTimeout = ((handler: () => void, ms?: number, ...args: unknown[]) => {
        if ((ms ?? 0) > 0) return real(handler, ms, ...args);
        held.push(() => handler());
        return 0;
      }) as typeof setTimeout;
      await road.data('data:snapshot', snapshotOf(key, 6_000, 2, 'B:'));
      await eventually(
        () => feed.current?.length === 6_000,
        () => `the list of 6,000 with zero-delay timers held (${feed.current?.length} shown)`,
        60_000,
      );
      return { shown: feed.current?.length ?? 0 };
    } finally {
      globalThis.setTimeout = real;
      for (const run of held) run();
      await close();
    }
  },

  /**
   * A bulk change's outbox mirror (355 updates, written by the worker as one overlay put) over a
   * 12,000-customer snapshot: the feed reads back only those 355, every other record keeps its
   * object (Dexie reports a large put as the whole table: keyed-puts.ts).
   */
  async bulk() {
    const key = `feed-bulk-${Math.random()}`;
    const { road, until, snapshot, close } = await followed(key);
    try {
      const first = await snapshot(snapshotOf(key, 12_000, 1, 'A:'));
      const targets = first.filter((_, i) => i % 30 === 0).slice(0, 355);
      const ops = targets.map((c, i) =>
        op(10 + i, { kind: 'updateCustomer', target: c.id, payload: { color: 'bulk-colour' } }),
      );
      await road.outbox({ accountKey: key, ops });
      const after = await until(
        (rows) => rows.filter((c) => c.color === 'bulk-colour').length === 355,
      );
      return {
        changed: targets.length,
        keptObjects: after.filter((c, i) => c === first[i]).length,
        coloured: after.filter((c) => c.color === 'bulk-colour').length,
        sameIds: after.map((c) => c.id).join() === first.map((c) => c.id).join(),
      };
    } finally {
      await close();
    }
  },

  /**
   * A kept snapshot shown before its save commits. The test hands the pieces to the stage itself
   * (the worker's reports are not wired to it), so the stage is whole before any of it is saved.
   * Over an empty cache with no queued change the feed shows it; the worker's save of the same
   * stream then changes nothing (the feed keeps the very array, which a later edit patches); a
   * stream let go (its save failed) takes the list back to the cache; with a change queued,
   * nothing is shown before a commit.
   */
  async preview() {
    const writer = new CacheWriter();
    const road = new RoadFeed(writer);
    const channel = new MessageChannel();
    const ready = new Promise<void>((resolve) => {
      channel.port1.onmessage = (event) => event.data === DATA_PORT_READY && resolve();
    });
    writer.connectData(channel.port2);
    await ready;
    const stage = new SnapshotStage();
    let quiet = true;
    const open = async (key: string) => {
      const cache = await CustomerCache.open(key);
      const feed = new CustomerFeed(cache.db, (rows) => rows, undefined, {
        stage,
        accountKey: key,
        quiet: () => quiet,
      });
      const seen: number[] = [];
      const stop = $effect.root(() => {
        $effect(() => {
          const rows = feed.current;
          if (rows) seen.push(rows.length);
        });
      });
      const until = async (test: (rows: CustomerRow[]) => boolean, what: string) => {
        await eventually(
          () => feed.current !== undefined && test(feed.current),
          () => `${what} (${key}: seen ${seen.join()}, shown ${feed.current?.length})`,
        );
        return feed.current ?? [];
      };
      const close = async () => {
        stop();
        feed.dispose();
        await writer.close(key);
        cache.close();
        await cache.destroy();
      };
      return { key, cache, feed, seen, until, close };
    };
    // Pieces the test only stages take no place on the worker's road (a gap would hold it).
    const scratch = new RoadFeed(writer);
    const piecesOf = (key: string, stream: string, n: number, seed: number, feed = scratch) =>
      feed.pieces('data:snapshot', snapshotOf(key, n, seed, 'P:'), 2_000, stream);
    const stageAll = (messages: ReturnType<typeof piecesOf>) => {
      for (const message of messages)
        if ('piece' in message) stage.add(metaOf(message.piece), JSON.stringify(message.piece));
    };
    const a = await open(`preview-a-${Math.random()}`);
    const b = await open(`preview-b-${Math.random()}`);
    try {
      // Both first reads done (a read that adopts nothing lets every settled stream go).
      await a.until((rows) => rows.length === 0, 'a empty');
      await b.until((rows) => rows.length === 0, 'b empty');
      await road.session(a.key);
      const pieces = piecesOf(a.key, 'p1', 6_000, 1, road);
      stageAll(pieces);
      const shown = await a.until((rows) => rows.length === 6_000, 'a previews p1');
      const cachedWhenShown = await a.cache.db.customers.count();
      // The worker saves the same stream, its pieces sent as main sends them.
      for (const message of pieces) channel.port1.postMessage(JSON.stringify(message));
      const saved = (await road.applied(pieces.at(-1)!.seq)).count;
      await eventually(() => !stage.has('p1'), 'a adopts p1');
      // A queued edit after it: the feed patches the array it has shown since the preview.
      await road.outbox({
        accountKey: a.key,
        ops: [op(1, { kind: 'updateCustomer', target: 'c1', payload: { name: 'Local' } })],
      });
      const edited = await a.until((rows) => rows.some((c) => c.name === 'Local'), 'a edited');
      const changed = a.feed.changedSince(shown, edited);
      const cachedIds = (await a.cache.db.customers.toCollection().primaryKeys()) as string[];
      const previewed = {
        cachedWhenShown,
        saved,
        adopted: !stage.has('p1'),
        seen: a.seen,
        changedSinceShown: changed && [...changed],
        keptObjects: edited.filter((c, i) => c === shown[i]).length,
        sameIdsAsCache: edited.map((c) => c.id).join() === cachedIds.join(),
      };

      // A stream let go before its save: the list goes back to the (empty) cache.
      await road.session(b.key);
      stageAll(piecesOf(b.key, 'p2', 4_000, 2));
      await b.until((rows) => rows.length === 4_000, 'b previews p2');
      stage.drop('p2');
      await b.until((rows) => rows.length === 0, 'b back to empty');
      // With a change queued nothing is shown before a commit: the next state is the cache's.
      quiet = false;
      stageAll(piecesOf(b.key, 'p3', 5_000, 3));
      await road.data('data:snapshot', snapshotOf(b.key, 10, 4, 'S:'));
      await b.until((rows) => rows.length === 10, 'b commits S');
      return { previewed, dropped: { seen: b.seen } };
    } finally {
      await a.close();
      await b.close();
    }
  },

  /**
   * Snapshots saved by the real cache worker while the page keeps their customers (the app's
   * wiring: the worker hands on each piece's text, SnapshotStage keeps it, the feed adopts it).
   * Pieces go over a data port as text, as Electron's main sends them, or through the page as
   * objects (main's fallback), which leaves nothing to adopt. Queued ops (an edit, a delete, a
   * create) are applied over the kept records by the cache's overlay, read from the cache.
   */
  async adopt() {
    const key = `adopt-${Math.random()}`;
    const writer = new CacheWriter();
    const taken: CustomerRow[][] = [];
    const stage = new (class extends SnapshotStage {
      override take(stream: string): CustomerRow[] | null {
        const rows = super.take(stream);
        if (rows) taken.push(rows);
        return rows;
      }
    })();
    // As the app does: the page keeps each piece the worker took (with its text, if any).
    writer.listen((report) => {
      if (report.kind === 'piece') stage.add(report.meta, report.json);
    });
    const road = new RoadFeed(writer);
    await road.session(key);
    const channel = new MessageChannel();
    const ready = new Promise<void>((resolve) => {
      channel.port1.onmessage = (event) => event.data === DATA_PORT_READY && resolve();
    });
    writer.connectData(channel.port2);
    await ready;
    const cache = await CustomerCache.open(key);
    const all = () => cache.db.customers.toArray();
    const same = (a: CustomerRow[], b: CustomerRow[]) => JSON.stringify(a) === JSON.stringify(b);
    await road.outbox({
      accountKey: key,
      ops: [
        op(1, { kind: 'updateCustomer', target: 'c1', payload: { name: 'Local' } }),
        op(2, { kind: 'deleteCustomer', target: 'c2', payload: null }),
        op(3, { kind: 'createCustomer', target: TEMP, payload: newCustomer() }),
      ],
    });
    const feed = new CustomerFeed(cache.db, (rows) => rows, undefined, {
      stage,
      accountKey: key,
      quiet: () => false,
    });
    const until = async (test: (rows: CustomerRow[]) => boolean) => {
      await eventually(() => feed.current !== undefined && test(feed.current));
      return feed.current ?? [];
    };
    const send = async (
      stream: string,
      n: number,
      seed: number,
      prefix: string,
      asText: boolean,
    ) => {
      const messages = road.pieces(
        'data:snapshot',
        snapshotOf(key, n, seed, prefix),
        2_000,
        stream,
      );
      for (const message of messages)
        if (asText) channel.port1.postMessage(JSON.stringify(message));
        else writer.road(message);
      return (await road.applied(messages.at(-1)!.seq)).count;
    };
    try {
      await until((rows) => rows.length === 1);
      const countA = await send('a', 12_000, 1, 'A:', true);
      const a = await until((rows) => rows.length === 12_000 && rows[0]!.name.startsWith('A:'));
      const keptA = new Set(taken[0] ?? []);
      const adoptedA = {
        count: countA,
        taken: taken.length,
        keptObjects: a.filter((row) => keptA.has(row)).length,
        sameAsCache: same(a, await all()),
        edited: a.find((c) => c.id === 'c1')?.name ?? null,
        deleted: !a.some((c) => c.id === 'c2'),
        created: a.some((c) => c.id === TEMP),
      };

      // Through the page: no text, so the feed reads the cache back.
      await send('b', 5_000, 2, 'B:', false);
      const b = await until((rows) => rows.length === 5_000 && rows[0]!.name.startsWith('B:'));
      const readB = { taken: taken.length, sameAsCache: same(b, await all()) };

      // The created customer gets its server id: the server data is no longer snapshot c's,
      // so a later full read must not take the kept copy of c for it.
      await send('c', 4_000, 3, 'C:', true);
      const c = await until((rows) => rows.length === 4_000 && rows[0]!.name.startsWith('C:'));
      const adoptedC = { taken: taken.length, sameAsCache: same(c, await all()) };
      await road.resolved({ accountKey: key, kind: 'customer', tempId: TEMP, id: 'c9999999' });
      const marker = await cache.db.meta.get('snapshotStream');
      return { adoptedA, readB, adoptedC, markerAfterResolve: marker?.value ?? null };
    } finally {
      feed.dispose();
      await writer.close(key);
      cache.close();
      await cache.destroy();
    }
  },
};

(globalThis as unknown as { feedScenarios: typeof feedScenarios }).feedScenarios = feedScenarios;
