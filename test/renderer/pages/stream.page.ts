// Browser side of test/renderer/cache-stream.e2e.test.ts: a large snapshot reaches the cache writer
// as pieces (src-shared/data-pieces.ts) and is saved while they arrive, in one transaction.
import { liveQuery } from 'dexie';
import type { Op } from '../../../src-shared';
import {
  sendInPieces,
  splitEvent,
  type DataPiece,
  type PieceMeta,
} from '../../../src-shared/data-pieces';
import { serveCacheWriter, type WriterPort } from '../../../src-renderer/src/cache/cache-writer';
import { CacheWriter } from '../../../src-renderer/src/cache/cache-writer-page';
import { CustomerCache } from '../../../src-renderer/src/cache/customer-cache';
import { snapshotOf } from './cache.page';
import { eventually } from './fixtures';

/** One state a liveQuery saw: its size, the name prefixes of records no op touched, c1's name. */
type Seen = { count: number; prefixes: string[]; c1: string | null; pending: number };

const TEMP = 'tmp_00000000-0000-4000-8000-0000000000s1';
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
  await writer.apply({ event: 'data:snapshot', payload: snapshotOf(key, 2_000, 1, 'A:') });
  await writer.setPendingOps(key, ops(key));
  await until((s) => s.pending === 3 && s.c1 === 'Local');
  const done = async () => {
    sub.unsubscribe();
    await writer.close(key);
    cache.close();
    await cache.destroy();
  };
  return { key, cache, seen, until, done };
}

/** The cache writer with its worker's side served in this page (so a deadline can be short). */
function pageWriter(options: { pieceGapMs?: number } = {}): CacheWriter {
  const channel = new MessageChannel();
  serveCacheWriter(channel.port1 as unknown as WriterPort, options);
  return new CacheWriter(channel.port2 as unknown as WriterPort);
}

const piecesOf = (key: string, stream: string, n: number): DataPiece[] =>
  splitEvent(stream, 'data:snapshot', snapshotOf(key, n, 2, 'B:'))!;

export const streamScenarios = {
  /**
   * An n-customer snapshot B over A, its pieces sent one by one to the real cache worker; a read
   * the page starts before the last piece is sent, and every state a liveQuery saw.
   */
  async overNonEmpty(n: number) {
    // The worker's side in this page; the page opens the stream before its pieces come, as
    // the app does when main announces it.
    const writer = pageWriter();
    const { key, cache, seen, until, done } = await watched(writer);
    try {
      const pieces = piecesOf(key, 'b', n);
      const opened = writer.openStream('b', key);
      for (const piece of pieces.slice(0, -1)) {
        writer.piece(piece);
        await sleep(5);
      }
      // A round trip through the worker: it has taken every piece sent so far.
      await writer.close(`nobody-${Math.random()}`);
      await opened;
      const readBeforeLast = cache.db.customers.count();
      writer.piece(pieces.at(-1)!);
      const progress: number[] = [];
      const count = await writer.applyStream('b', true, (d) => progress.push(d));
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
   * The page's 'stream' request overtakes the stream's last pieces (it travels on the page's
   * port, they on main's): the worker handles the request after piece 0 alone, then the rest
   * come. The deadline is ten minutes, so a save that stopped taking its pieces would time the
   * test out instead of passing on a short one.
   */
  async overtaken() {
    const writer = pageWriter({ pieceGapMs: 600_000 });
    const { key, until, done } = await watched(writer);
    try {
      const pieces = piecesOf(key, 'o', 6_000);
      const opened = writer.openStream('o', key);
      writer.piece(pieces[0]!);
      await opened;
      // Progress is reported only once the worker took the request (and wrote piece 0).
      let handled = () => {};
      const taken = new Promise<void>((resolve) => (handled = resolve));
      const counted = writer.applyStream('o', true, () => handled());
      await taken;
      for (const piece of pieces.slice(1)) writer.piece(piece);
      const count = await counted;
      const last = await until((s) => s.count === 6_000 - 1 + 1);
      return { pieces: pieces.length, count, last };
    } finally {
      await done();
    }
  },

  /**
   * Streams that break: one whose pieces stop coming (its deadline shortened to 300 ms) while a
   * write waits behind it, then its late pieces; one with a piece out of order. The writer runs
   * in this page (serveCacheWriter on a MessageChannel) so the deadline can be short.
   */
  async broken() {
    const writer = pageWriter({ pieceGapMs: 300 });
    // The streams whose save the worker reports failed, in order.
    const unsaved: string[] = [];
    writer.onUnsaved((stream) => unsaved.push(stream));
    const { key, seen, until, done } = await watched(writer);
    try {
      const lost = piecesOf(key, 'lost', 10_000);
      for (const piece of lost.slice(0, 3)) writer.piece(piece);
      await writer.openStream('lost', key);
      const behind = await writer.setPendingOps(key, ops(key).slice(0, 1));
      await until((s) => s.pending === 1);
      for (const piece of lost.slice(3)) writer.piece(piece);
      const lostCount = await writer.applyStream('lost', true);
      const bad = piecesOf(key, 'bad', 10_000);
      const badOpened = writer.openStream('bad', key);
      for (const piece of [bad[0]!, bad[1]!, bad[3]!, bad[2]!, bad[4]!]) writer.piece(piece);
      await badOpened;
      const badCount = await writer.applyStream('bad', true);
      // The cache takes the next stream whole.
      const good = piecesOf(key, 'good', 6_000);
      const goodOpened = writer.openStream('good', key);
      for (const piece of good) writer.piece(piece);
      await goodOpened;
      const goodCount = await writer.applyStream('good', true);
      const last = await until((s) => s.count === 6_000);
      return { seen, behind, lostCount, badCount, goodCount, last, unsaved };
    } finally {
      await done();
    }
  },

  /**
   * The page, not piece 0, starts a save: pieces come before a write the page asked for first
   * (main emitted it before the stream; it came the page's way), then the page opens the stream.
   * The write applies on A, then the whole stream is saved; a write asked after the opening
   * applies after the save's commit.
   */
  async orderedByPage() {
    const writer = pageWriter({ pieceGapMs: 2_000 });
    const { key, seen, until, done } = await watched(writer);
    try {
      const pieces = piecesOf(key, 's', 10_000);
      for (const piece of pieces.slice(0, 2)) writer.piece(piece);
      // A round trip: the worker holds those two pieces.
      await writer.close(`nobody-${Math.random()}`);
      const before = await writer.setPendingOps(key, ops(key).slice(0, 1));
      const seenBefore = await until((s) => s.pending === 1);
      const opened = writer.openStream('s', key);
      const after = writer.setPendingOps(key, ops(key).slice(0, 2));
      for (const piece of pieces.slice(2)) writer.piece(piece);
      await opened;
      const count = await writer.applyStream('s', true);
      const afterCount = await after;
      const last = await until((s) => s.count === 10_000 - 1 && s.pending === 2);
      return { before, seenBefore, count, afterCount, last, seen };
    } finally {
      await done();
    }
  },

  /**
   * An announcement that comes after its stream was taken (a one-piece stream whose piece
   * overtook it), and one of a stream that lost a piece: neither opening waits for a piece 0
   * (the deadline here is ten minutes, so a wait would time the test out).
   */
  async lateOpenings() {
    const writer = pageWriter({ pieceGapMs: 600_000 });
    const { key, done } = await watched(writer);
    try {
      const taken = piecesOf(key, 'taken', 3_000);
      for (const piece of taken) writer.piece(piece);
      const takenCount = await writer.applyStream('taken', true);
      await writer.openStream('taken', key);
      const lost = piecesOf(key, 'lost', 6_000);
      for (const piece of [lost[0]!, lost[2]!, lost[1]!]) writer.piece(piece);
      await writer.close(`nobody-${Math.random()}`);
      await writer.openStream('lost', key);
      const after = await writer.setPendingOps(key, ops(key).slice(0, 1));
      return { takenCount, after };
    } finally {
      await done();
    }
  },

  /**
   * Snapshots main streams while it still reads them (sendInPieces' openSnapshotStream), the
   * worker's side in this page with a ten-minute piece deadline: one given up after two of its
   * five customer pieces (main's pull failed), one given up before its first piece while the
   * page's opening waits for it, then one streamed whole. Each announcement opens its stream
   * as the app does.
   */
  async aborted() {
    const writer = pageWriter({ pieceGapMs: 600_000 });
    const { key, seen, until, done } = await watched(writer);
    const metas: PieceMeta[] = [];
    writer.onPiece((meta) => metas.push(meta));
    const openings: Array<Promise<void>> = [];
    const emit = sendInPieces(
      (event, payload) => {
        if (event === 'data:stream') {
          const { stream } = payload as { stream: string };
          openings.push(writer.openStream(stream, key));
        }
      },
      2_000,
      () => (piece) => writer.piece(piece),
    );
    const open = emit.openSnapshotStream!;
    try {
      const b = snapshotOf(key, 10_000, 2, 'B:');
      const head = { ...b, customers: [], routes: [], territories: [] };
      const counts = { customers: 10_000, routes: b.routes.length, territories: 0 };
      const cut = open(head, counts)!;
      cut.add('customers', b.customers.slice(0, 2_000));
      cut.add('customers', b.customers.slice(2_000, 4_000));
      await writer.close(`nobody-${Math.random()}`);
      cut.abort();
      await openings[0];
      const afterCut = await until((s) => s.pending === 3);
      // Given up before any piece: the opening waiting for piece 0 goes on at once.
      open(head, counts)!.abort();
      await openings[1];
      const afterEmpty = await writer.setPendingOps(key, ops(key));
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
      await openings[2];
      const stream = metas.at(-1)!.stream;
      const count = await writer.applyStream(stream, true);
      const last = await until((s) => s.prefixes.join() === 'C:');
      return { metas, seen, afterCut, afterEmpty, count, last };
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
    const key = `pipe-${Math.random()}`;
    const cache = await CustomerCache.open(key);
    const pieces = splitEvent('p', 'data:snapshot', snapshotOf(key, 6_000, 3, 'P:'), 2_000, true)!;
    const store = IDBObjectStore.prototype;
    const add = store.add;
    let calls = 0;
    let succeeded = 0;
    const firstAddAt: number[] = [];
    store.add = function (this: IDBObjectStore, ...args: Parameters<typeof add>) {
      const request = add.apply(this, args);
      if (this.name !== 'customers') return request;
      const index = calls++;
      if (index % 2_000 === 0) firstAddAt.push(succeeded);
      request.addEventListener('success', () => {
        succeeded++;
        // The next piece, in order (after the third customers piece: routes, territories).
        if (index === 0) take(pieces[1]);
        if (index === 2_000) take(pieces[2]);
        if (index === 4_000) for (const piece of pieces.slice(3)) take(piece);
      });
      return request;
    };
    // As the app does, the page asks for the save once the worker told it of every piece.
    let heard = 0;
    const allHeard = new Promise<void>((resolve) =>
      writer.onPiece(() => {
        if (++heard === pieces.length) resolve();
      }),
    );
    try {
      const opened = writer.openStream('p', key);
      take(pieces[0]);
      await opened;
      await allHeard;
      const count = await writer.applyStream('p', true);
      return { pieces: pieces.length, count, firstAddAt, stored: await cache.db.customers.count() };
    } finally {
      store.add = add;
      await writer.close(key);
      cache.close();
      await cache.destroy();
    }
  },
};

(globalThis as unknown as { streamScenarios: typeof streamScenarios }).streamScenarios =
  streamScenarios;
