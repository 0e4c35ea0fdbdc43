// Browser side of test/renderer/cache-stream.e2e.test.ts: a large snapshot reaches the cache writer
// as numbered pieces on the road (src-shared/data-road.ts) and is saved while they arrive, in one
// transaction, in its place among main's other messages.
import { liveQuery } from 'dexie';
import type { Op } from '../../../src-shared';
import type { PieceMeta } from '../../../src-shared/data-pieces';
import { Road, roadEmitter, type RoadMessage } from '../../../src-shared/data-road';
import { serveCacheWriter, type WriterPort } from '../../../src-renderer/src/cache/cache-writer';
import { CacheWriter } from '../../../src-renderer/src/cache/cache-writer-page';
import { CustomerCache } from '../../../src-renderer/src/cache/customer-cache';
import { SnapshotStage } from '../../../src-renderer/src/cache/snapshot-stage';
import { customersDeltaOf, snapshotOf } from './cache.page';
import { eventually } from './fixtures';
import { RoadFeed } from './road-feed';

/** What scenarios started with `start` came to (a value, or an error's text). */
const outcomes = new Map<string, { value?: unknown; error?: string }>();

/** One state a liveQuery saw: its size, the name prefixes of records no op touched, c1's name. */
type Seen = { count: number; prefixes: string[]; c1: string | null; pending: number };

const TEMP = 'tmp_00000000-0000-4000-8000-0000000000a1';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function ops(key: string): Op[] {
  const base = { accountKey: key, attempts: 0, lastError: null, state: 'pending', base: null };
  const { id: _i, createdAt: _c, updatedAt: _u, ...fields } = snapshotOf(key, 1, 9).customers[0]!;
  return [
    {
      ...base,
      opId: 's-op1',
      createdAt: 1,
      kind: 'updateCustomer',
      target: 'c1',
      payload: { name: 'Local' },
    },
    { ...base, opId: 's-op2', createdAt: 2, kind: 'deleteCustomer', target: 'c2', payload: null },
    { ...base, opId: 's-op3', createdAt: 3, kind: 'createCustomer', target: TEMP, payload: fields },
  ] as Op[];
}

/** An account cache holding snapshot A (2,000 customers) under three queued ops, watched. */
async function watched(writer: CacheWriter) {
  const key = `stream-${Math.random()}`;
  const road = new RoadFeed(writer);
  await road.session(key);
  const cache = await CustomerCache.open(key);
  const { db } = cache;
  const seen: Seen[] = [];
  const sub = liveQuery(() =>
    db.transaction('r', db.customers, db.pending, async (): Promise<Seen> => {
      const all = await db.customers.toArray();
      const untouched = all.filter((c) => c.id !== 'c1' && c.id !== TEMP);
      return {
        count: all.length,
        prefixes: [...new Set(untouched.map((c) => c.name.slice(0, 2)))].sort(),
        c1: all.find((c) => c.id === 'c1')?.name ?? null,
        pending: await db.pending.count(),
      };
    }),
  ).subscribe((s) => seen.push(s));
  const until = async (test: (s: Seen) => boolean) => {
    await eventually(() => seen.length > 0 && test(seen.at(-1)!));
    return seen.at(-1) ?? null;
  };
  await road.data('data:snapshot', snapshotOf(key, 2_000, 1, 'A:'));
  await road.outbox({ accountKey: key, ops: ops(key) });
  await until((s) => s.pending === 3 && s.c1 === 'Local');
  const done = async () => {
    sub.unsubscribe();
    await writer.close(key);
    cache.close();
    await cache.destroy();
  };
  return { key, road, cache, seen, until, done };
}

/** The cache writer with its worker's side served in this page (so deadlines can be short). */
function pageWriter(options: { pieceGapMs?: number; roadGapMs?: number } = {}): CacheWriter {
  const channel = new MessageChannel();
  serveCacheWriter(channel.port1 as unknown as WriterPort, options);
  return new CacheWriter(channel.port2 as unknown as WriterPort);
}

/** Every order two first-in-first-out transports can deliver `n` messages in (merges of two). */
function transportOrders(n: number): number[][] {
  const orders = new Set<string>();
  for (let mask = 0; mask < 1 << n; mask++) {
    const a = [...Array(n).keys()].filter((i) => mask & (1 << i));
    const b = [...Array(n).keys()].filter((i) => !(mask & (1 << i)));
    const merge = (i: number, j: number, out: number[]): void => {
      if (i === a.length && j === b.length) return void orders.add(out.join());
      if (i < a.length) merge(i + 1, j, [...out, a[i]!]);
      if (j < b.length) merge(i, j + 1, [...out, b[j]!]);
    };
    merge(0, 0, []);
  }
  return [...orders].map((o) => o.split(',').map(Number));
}

export const streamScenarios = {
  /**
   * An n-customer snapshot B over A, its pieces sent one by one to the real cache worker; a read
   * the page starts before the last piece is sent, and every state a liveQuery saw.
   */
  async overNonEmpty(n: number) {
    const writer = pageWriter();
    const { key, road, cache, seen, until, done } = await watched(writer);
    try {
      const pieces = road.pieces('data:snapshot', snapshotOf(key, n, 2, 'B:'));
      const progress: number[] = [];
      writer.listen((r) => r.kind === 'saving' && progress.push(r.done));
      for (const message of pieces.slice(0, -1)) {
        road.send([message]);
        await sleep(5);
      }
      // A round trip through the worker: it has taken every piece sent so far (and opened the save).
      await writer.idle();
      const readBeforeLast = cache.db.customers.count();
      const { count } = await road.apply(pieces.slice(-1));
      const last = await until((s) => s.prefixes.join() === 'B:');
      return {
        seen,
        count,
        readBeforeLast: await readBeforeLast,
        last,
        progressEnd: progress.at(-1),
      };
    } finally {
      await done();
    }
  },

  /**
   * A stream whose pieces stop coming on the road (later messages wait behind the gap, whose
   * deadline is shortened to 300 ms): the worker reports the road lost, the stream is never
   * applied, and a new road (what the page opens then) takes the next stream whole.
   */
  async lost() {
    const writer = pageWriter({ pieceGapMs: 600_000, roadGapMs: 300 });
    const { key, road, seen, until, done } = await watched(writer);
    try {
      const lost = road.pieces('data:snapshot', snapshotOf(key, 10_000, 2, 'L:'));
      const behind = road.event('outbox:changed', { accountKey: key, ops: ops(key).slice(0, 1) });
      // Piece 3 never comes; the outbox mirror after the stream waits behind it.
      road.send([...lost.slice(0, 3), ...lost.slice(4), behind]);
      await eventually(() => road.reports.some((r) => r.kind === 'lost'));
      const lostReport = road.reports.find((r) => r.kind === 'lost');
      const appliedBehind = road.reports.some((r) => r.kind === 'applied' && r.seq === behind.seq);
      // The page opens a new road: main's state first, then the next stream, whole.
      road.newRoad();
      await road.session(key);
      await road.outbox({ accountKey: key, ops: ops(key).slice(0, 1) });
      const goodCount = await road.data('data:snapshot', snapshotOf(key, 6_000, 2, 'B:'));
      // A straggler of the old road changes nothing.
      road.writer.road(lost[3]!);
      await writer.idle();
      const last = await until((s) => s.count === 6_000);
      return { seen, lostReport, appliedBehind, goodCount, last };
    } finally {
      await done();
    }
  },

  /**
   * Writes in the road's order, whatever order the transports deliver in: a stream's pieces,
   * an outbox mirror main sent before it and one it sent after, each message handed over in
   * every order two transports allow. The mirror before applies on A; the stream, then the
   * mirror after on top of it; no liveQuery sees a state in between.
   */
  async everyOrder() {
    const results: Array<{ order: string; count: number | null; last: Seen | null; of: number }> =
      [];
    const mixed: Seen[] = [];
    const writer = pageWriter();
    const { key, road, seen, until, done } = await watched(writer);
    try {
      for (let round = 0; ; round++) {
        road.newRoad();
        const messages: RoadMessage[] = [
          road.event('session:changed', {
            accountKey: key,
            baseUrl: 'http://127.0.0.1:1',
            username: 'feed',
            demo: false,
          }),
          road.event('outbox:changed', { accountKey: key, ops: ops(key).slice(0, 1) }),
          ...road.pieces('data:snapshot', snapshotOf(key, 1_000, 2, 'B:'), 500),
          road.event('outbox:changed', { accountKey: key, ops: ops(key).slice(0, 2) }),
        ];
        // The session goes first; the others in this round's order.
        const [first, ...rest] = messages;
        const orders = transportOrders(rest.length);
        const order = orders[round];
        if (!order) break;
        road.send([first!]);
        const from = seen.length;
        road.send(order.map((i) => rest[i]!));
        const report = await road.applied(messages.at(-1)!.seq);
        const last = await until((s) => s.pending === 2 && s.prefixes.join() === 'B:');
        results.push({ order: order.join(''), count: report.count, last, of: orders.length });
        // Every state seen: the last round's end (A or B under two ops), B under one op being
        // replaced by B under two.
        for (const s of seen.slice(from))
          if (!(s.prefixes.join() === 'B:' || s.prefixes.join() === 'A:')) mixed.push(s);
        // Back to A under the three ops for the next round.
        await road.data('data:snapshot', snapshotOf(key, 2_000, 1, 'A:'));
        await road.outbox({ accountKey: key, ops: ops(key) });
      }
      return { results, mixed };
    } finally {
      await done();
    }
  },

  /**
   * Snapshots main streams while it still reads them (roadEmitter's openSnapshotStream), the
   * worker's side in this page with a ten-minute piece deadline: one given up after two of its
   * five customer pieces (main's pull failed), one given up before its first piece, then one
   * streamed whole.
   */
  async aborted() {
    const writer = pageWriter({ pieceGapMs: 600_000 });
    const { key, seen, until, done } = await watched(writer);
    const metas: PieceMeta[] = [];
    writer.listen((r) => r.kind === 'piece' && metas.push(r.meta));
    const sent: RoadMessage[] = [];
    const mainRoad = new Road({
      direct: () => null,
      viaPage: (message) => {
        sent.push(message);
        writer.road(message);
      },
    });
    const emit = roadEmitter(
      () => undefined,
      () => [mainRoad],
      2_000,
    );
    // Road 2: newer than the one watched() set the cache up on.
    emit.openRoad();
    emit.openRoad();
    emit('session:changed', {
      accountKey: key,
      baseUrl: 'http://127.0.0.1:1',
      username: 'f',
      demo: false,
    });
    const open = emit.openSnapshotStream;
    const watcher = new RoadFeed(writer);
    const feedAt = () => watcher.applied(sent.at(-1)!.seq, sent.at(-1)!.road);
    try {
      const b = snapshotOf(key, 10_000, 2, 'B:');
      const head = { ...b, customers: [], routes: [], territories: [] };
      const counts = { customers: 10_000, routes: b.routes.length, territories: 0 };
      const cut = open(head, counts)!;
      cut.add('customers', b.customers.slice(0, 2_000));
      cut.add('customers', b.customers.slice(2_000, 4_000));
      await writer.idle();
      cut.abort();
      await feedAt();
      const afterCut = await until((s) => s.pending === 3);
      // Given up before any piece.
      open(head, counts)!.abort();
      await feedAt();
      emit('outbox:changed', { accountKey: key, ops: ops(key) });
      const afterEmpty = (await feedAt()).count;
      const c = snapshotOf(key, 6_000, 3, 'C:');
      const whole = open(
        { ...c, customers: [], routes: [], territories: [] },
        { customers: 6_000, routes: c.routes.length, territories: c.territories.length },
      )!;
      for (let i = 0; i < 6_000; i += 1_500)
        whole.add('customers', c.customers.slice(i, i + 1_500));
      whole.add('routes', c.routes);
      whole.add('territories', c.territories);
      whole.end();
      const { count } = await feedAt();
      const last = await until((s) => s.prefixes.join() === 'C:');
      const lost = watcher.reports.filter((r) => r.kind === 'lost').length;
      return { metas, seen, afterCut, afterEmpty, count, last, lost };
    } finally {
      await done();
    }
  },

  /**
   * A snapshot's piece that arrives while the backend still writes the piece before is added at
   * once, not after every put before it succeeded (piece-save.ts, writeSnapshot). Each next
   * customers piece is handed to the worker's side inside the success callback of the previous
   * piece's first put, so it is certainly here while that piece's other puts are pending;
   * counted: how many customer puts had succeeded when each piece's first add was made.
   */
  async pipelined() {
    const channel = new MessageChannel();
    const take = serveCacheWriter(channel.port1 as unknown as WriterPort);
    const writer = new CacheWriter(channel.port2 as unknown as WriterPort);
    const road = new RoadFeed(writer);
    const key = `pipe-${Math.random()}`;
    await road.session(key);
    const cache = await CustomerCache.open(key);
    const pieces = road.pieces('data:snapshot', snapshotOf(key, 6_000, 3, 'P:'), 2_000);
    const text = (i: number) => JSON.stringify(pieces[i]);
    const store = IDBObjectStore.prototype;
    const put = store.put;
    let calls = 0;
    let succeeded = 0;
    const firstAddAt: number[] = [];
    store.put = function (this: IDBObjectStore, ...args: Parameters<typeof put>) {
      const request = put.apply(this, args);
      if (this.name !== 'customers') return request;
      const index = calls++;
      if (index % 2_000 === 0) firstAddAt.push(succeeded);
      request.addEventListener('success', () => {
        succeeded++;
        // The next piece, in order (after the third customers piece: routes, territories).
        if (index === 0) take(text(1));
        if (index === 2_000) take(text(2));
        if (index === 4_000) for (let i = 3; i < pieces.length; i++) take(text(i));
      });
      return request;
    };
    try {
      take(text(0));
      const { count } = await road.applied(pieces.at(-1)!.seq);
      return { pieces: pieces.length, count, firstAddAt, stored: await cache.db.customers.count() };
    } finally {
      store.put = put;
      await writer.close(key);
      cache.close();
      await cache.destroy();
    }
  },

  /**
   * A snapshot that lists one id twice (c10, its last copy renamed) over A under three ops, sent
   * as text as main's data port sends it, the page keeping its copy as DataInbox does: saved,
   * the last copy winning, in the cache and in the page's kept copy alike.
   */
  async duplicateId() {
    const writer = pageWriter({ pieceGapMs: 600_000 });
    const { key, road, cache, until, done } = await watched(writer);
    const stage = new SnapshotStage();
    writer.listen((r) => void (r.kind === 'piece' && stage.add(r.meta, r.json)));
    const progress: number[] = [];
    writer.listen((r) => void (r.kind === 'saving' && progress.push(r.done)));
    try {
      const snapshot = snapshotOf(key, 4_000, 2, 'D:');
      snapshot.customers.push({ ...snapshot.customers[10]!, name: 'D: last copy' });
      const messages = road.pieces('data:snapshot', snapshot);
      const first = messages[0]!;
      const stream = 'piece' in first ? first.piece.stream : '';
      const report = await road.apply(messages, 'text');
      const last = await until((s) => s.prefixes.join() === 'D:');
      const kept = stage.peek(stream);
      return {
        pieces: messages.length,
        saved: 'saved' in report ? report.saved : null,
        count: report.count,
        lost: road.reports.filter((r) => r.kind === 'lost').length,
        progressEnd: progress.at(-1),
        last,
        c10: (await cache.db.customers.get('c10'))?.name,
        kept: kept?.length ?? null,
        keptC10: kept?.filter((c) => c.id === 'c10').map((c) => c.name),
      };
    } finally {
      await done();
    }
  },

  /**
   * A delta whose upserted lists c5 twice, in two pieces (its last copy renamed): saved, the
   * last copy winning.
   */
  async duplicateInDelta() {
    const writer = pageWriter({ pieceGapMs: 600_000 });
    const { key, road, cache, done } = await watched(writer);
    try {
      const upserted = snapshotOf(key, 1_500, 3, 'E:').customers;
      upserted.push({ ...upserted[5]!, name: 'E: last copy' });
      const delta = customersDeltaOf(key, upserted);
      const report = await road.apply(road.pieces('data:delta', delta, 1_000));
      return {
        saved: 'saved' in report ? report.saved : null,
        count: report.count,
        lost: road.reports.filter((r) => r.kind === 'lost').length,
        c5: (await cache.db.customers.get('c5'))?.name,
      };
    } finally {
      await done();
    }
  },

  /**
   * A snapshot, then a delta, each with a record without an id in its second piece (the put of
   * it throws inside the stream's open transaction; the snapshot's later pieces come after);
   * then a snapshot one of whose puts fails in
   * the backend, later (injected: it is made an add of a key already written); then an outbox
   * mirror behind them.
   */
  async failedSaves() {
    const writer = pageWriter({ pieceGapMs: 600_000 });
    const { key, road, cache, until, done } = await watched(writer);
    const store = IDBObjectStore.prototype;
    const { put, add } = store;
    const inject = (write: typeof put) =>
      function (this: IDBObjectStore, value: unknown, key?: IDBValidKey) {
        if ((value as { name?: unknown }).name === 'INJECTED')
          return add.call(this, { ...(value as object), id: 'c0' });
        return write.call(this, value, key);
      };
    store.put = inject(put);
    store.add = inject(add);
    try {
      const snapshot = snapshotOf(key, 6_000, 2, 'F:');
      const { id: _id, ...noId } = snapshot.customers[3_000]!;
      snapshot.customers[3_000] = noId as (typeof snapshot.customers)[number];
      // The rest of the first stream is sent once its transaction ended (a read of the
      // customers waits for it): pieces that come after the save failed.
      const pieces = road.pieces('data:snapshot', snapshot);
      road.send(pieces.slice(0, 2));
      await writer.idle(); // the worker took them and opened the save's transaction
      const during = await cache.db.customers.count();
      const first = await road.apply(pieces.slice(2));
      const upserted = snapshotOf(key, 3_000, 3, 'G:').customers;
      upserted[1_500] = noId as (typeof upserted)[number];
      const delta = customersDeltaOf(key, upserted);
      const second = await road.apply(road.pieces('data:delta', delta, 1_000));
      const failing = snapshotOf(key, 6_000, 4, 'H:');
      failing.customers[5_000]!.name = 'INJECTED';
      const third = await road.apply(road.pieces('data:snapshot', failing));
      const mirror = await road.outbox({ accountKey: key, ops: ops(key).slice(0, 1) });
      const last = await until((s) => s.pending === 1);
      const streams = [first, second, third].map((r) => ({
        saved: 'saved' in r ? r.saved : null,
        count: r.count,
      }));
      const lost = road.reports.filter((r) => r.kind === 'lost').map((r) => r.seq);
      return { during, streams, lost, ends: [first.seq, second.seq, third.seq], mirror, last };
    } finally {
      store.put = put;
      store.add = add;
      await done();
    }
  },

  /**
   * The count a streamed snapshot's end reports, against the table's: one listing c7 twice over
   * a cache with no queued op (the save knows its count), then one under a queued create (the
   * overlay adds a customer: the table is counted).
   */
  async countsReported() {
    const writer = pageWriter({ pieceGapMs: 600_000 });
    const key = `stream-${Math.random()}`;
    const road = new RoadFeed(writer);
    await road.session(key);
    const cache = await CustomerCache.open(key);
    try {
      const twice = snapshotOf(key, 4_000, 5, 'F:');
      twice.customers.push({ ...twice.customers[7]!, name: 'F: last copy' });
      const clean = await road.apply(road.pieces('data:snapshot', twice), 'text');
      const cleanTable = await cache.db.customers.count();
      const create = ops(key).filter((op) => op.kind === 'createCustomer');
      await road.outbox({ accountKey: key, ops: create });
      const next = snapshotOf(key, 3_000, 6, 'G:');
      const underOp = await road.apply(road.pieces('data:snapshot', next), 'text');
      return {
        clean: clean.count,
        cleanTable,
        underOp: underOp.count,
        underOpTable: await cache.db.customers.count(),
      };
    } finally {
      await writer.close(key);
      cache.close();
      await cache.destroy();
    }
  },

  /**
   * Starts a scenario without waiting for it: the test polls `outcome` with a bound, so a
   * save that never ends fails the test instead of hanging it.
   */
  start(name: 'duplicateId' | 'duplicateInDelta' | 'failedSaves' | 'countsReported') {
    outcomes.delete(name);
    streamScenarios[name]().then(
      (value) => outcomes.set(name, { value }),
      (error: unknown) => outcomes.set(name, { error: String(error) }),
    );
    return true;
  },

  /** What a started scenario came to, or null while it runs. */
  outcome(name: string) {
    return outcomes.get(name) ?? null;
  },
};

(globalThis as unknown as { streamScenarios: typeof streamScenarios }).streamScenarios =
  streamScenarios;
