// A large snapshot saved while its pieces arrive (cache/piece-save.ts), on Chromium's real
// IndexedDB through the cache writer: one transaction from the first piece to the last, so a
// liveQuery never sees part of it, in its place on main's road (src-shared/data-road.ts) whatever
// order the transports deliver in, and a stream lost on the way leaves the cache as it was.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, tempDir } from '../support/browser';
import { buildTestPages } from './support/bundle';
import { openCachePage } from './support/pages';

let out: Awaited<ReturnType<typeof tempDir>>;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  out = await tempDir('fieldmap-cache-stream-');
  await buildTestPages(out.path);
  browser = await launchBrowser();
  page = await openCachePage(await browser.newContext(), out.path);
});

afterAll(async () => {
  await browser?.close();
  await out?.remove();
});

type Seen = { count: number; prefixes: string[]; c1: string | null; pending: number };

function call<T>(name: string, ...args: unknown[]): Promise<T> {
  return page.evaluate(
    ([n, a]) => {
      const all = (
        globalThis as unknown as {
          streamScenarios: Record<string, (...x: unknown[]) => unknown>;
        }
      ).streamScenarios;
      return all[n as string]!(...(a as unknown[]));
    },
    [name, args] as const,
  ) as Promise<T>;
}

/** A (2,000) under the three ops: c1 renamed, c2 deleted, one created. */
const A = { count: 2_000, prefixes: ['A:'], c1: 'Local' };

describe('A snapshot saved as its pieces arrive', () => {
  it('main gives a streamed snapshot up: its save rolls back, nobody asks again, the next one saves whole', async () => {
    const r = await call<{
      metas: Array<{ stream: string; index: number; dropped: boolean; aborted?: boolean }>;
      seen: Seen[];
      afterCut: Seen | null;
      afterEmpty: number | null;
      count: number | null;
      last: Seen | null;
      lost: number;
    }>('aborted');
    expect(r.lost).toBe(0);
    const streams = [...new Set(r.metas.map((m) => m.stream))];
    expect(streams).toHaveLength(3);
    const of = (s: string) => r.metas.filter((m) => m.stream === s);
    // Two pieces, then the abort, told to the page as a dropped stream main gave up.
    expect(of(streams[0]!).map((m) => [m.index, m.dropped, !!m.aborted])).toEqual([
      [0, false, false],
      [1, false, false],
      [2, true, true],
    ]);
    expect(of(streams[1]!).map((m) => [m.index, m.dropped, !!m.aborted])).toEqual([
      [0, true, true],
    ]);
    // The cache kept A under its ops: nothing of B was ever seen.
    expect(r.afterCut).toMatchObject({ count: 2_000, prefixes: ['A:'], pending: 3 });
    expect(r.seen.filter((s) => s.prefixes.includes('B:'))).toEqual([]);
    expect(r.afterEmpty).toBe(2_000);
    // The whole stream: 4 customer pieces of 1,500 re-cut to 2,000 (3), routes, territories.
    expect(of(streams[2]!).map((m) => m.index)).toEqual([0, 1, 2, 3, 4]);
    expect(r.count).toBe(6_000);
    expect(r.last).toMatchObject({ count: 6_000, prefixes: ['C:'], c1: 'Local' });
  });

  it('is written before its last piece, in one transaction over a non-empty cache: no read sees a mix', async () => {
    const n = 20_000;
    const r = await call<{
      seen: Seen[];
      count: number | null;
      readBeforeLast: number;
      last: Seen | null;
      progressEnd: number | undefined;
    }>('overNonEmpty', n);
    const B = { count: n, prefixes: ['B:'], c1: 'Local', pending: 3 };
    expect(r.count).toBe(n);
    expect(r.last).toEqual(B);
    expect(r.progressEnd).toBe(n);
    // The save had begun before the last piece: a read started then waited for its commit.
    expect(r.readBeforeLast).toBe(n);
    // Every state seen is the empty cache, A (with or before its ops), or all of B with the ops.
    const whole = (s: Seen) =>
      s.count === 0 ||
      (s.count === 2_000 && s.prefixes.join() === 'A:') ||
      (s.count === n && s.prefixes.join() === 'B:' && s.c1 === 'Local' && s.pending === 3);
    expect(r.seen.filter((s) => !whole(s))).toEqual([]);
  });

  it('adds a piece that arrives while the pieces before it are still being written, without waiting for them', async () => {
    const r = await call<{ pieces: number; count: number; firstAddAt: number[]; stored: number }>(
      'pipelined',
    );
    expect(r.pieces).toBe(5); // three of customers, then routes and territories
    expect(r.count).toBe(6_000);
    expect(r.stored).toBe(6_000);
    expect(r.firstAddAt).toHaveLength(3);
    // Piece 1 was added while most of piece 0's puts were pending (before: only after all 2,000
    // had succeeded, when Dexie.waitFor's keep-alive request behind them came back).
    expect(r.firstAddAt[0]).toBe(0);
    expect(r.firstAddAt[1]).toBeLessThan(2_000);
    expect(r.firstAddAt[2]).toBeLessThan(4_000);
  });

  it("applies the stream and the outbox mirrors around it in main's order, in every order two transports deliver them", async () => {
    const r = await call<{
      results: Array<{ order: string; count: number | null; last: Seen | null; of: number }>;
      mixed: Seen[];
    }>('everyOrder');
    // Six messages after the session: 132 merges of two first-in-first-out transports.
    expect(r.results[0]!.of).toBe(132);
    expect(r.results).toHaveLength(132);
    for (const { count, last } of r.results) {
      expect(count).toBe(999); // B under the two ops: c2 deleted
      expect(last).toEqual({ count: 999, prefixes: ['B:'], c1: 'Local', pending: 2 });
    }
    expect(r.mixed).toEqual([]);
  });

  it('leaves the cache as it was when the road loses a piece, says so once, and takes the next road whole', async () => {
    const r = await call<{
      seen: Seen[];
      lostReport: { road: number; seq: number } | undefined;
      appliedBehind: boolean;
      goodCount: number | null;
      last: Seen | null;
    }>('lost');
    // The gap is piece 3's place; nothing after it (the mirror behind the stream) was applied.
    expect(r.lostReport).toMatchObject({ seq: expect.any(Number) });
    expect(r.appliedBehind).toBe(false);
    expect(r.goodCount).toBe(6_000);
    expect(r.last).toEqual({ count: 6_000, prefixes: ['B:'], c1: 'Local', pending: 1 });
    const whole = (s: Seen) =>
      s.count === 0 ||
      (s.count === A.count && s.prefixes.join() === 'A:') ||
      (s.count === 6_000 && s.prefixes.join() === 'B:' && s.pending === 1);
    expect(r.seen.filter((s) => !whole(s))).toEqual([]);
  });
});

describe('A stream whose save meets a duplicate id or an exception', () => {
  /** Starts a scenario and polls for its outcome: a save that never ends fails, bounded. */
  async function outcome<T>(name: string): Promise<T> {
    await call('start', name);
    await expect
      .poll(() => call<{ value?: T; error?: string } | null>('outcome', name), { timeout: 60_000 })
      .not.toBeNull();
    const done = (await call<{ value?: T; error?: string }>('outcome', name))!;
    expect(done.error).toBeUndefined();
    return done.value!;
  }

  it('saves a 4,001-customer snapshot that lists one id twice, its last copy winning, in the cache and the page', async () => {
    const r = await outcome<{
      pieces: number;
      saved: boolean | null;
      count: number | null;
      lost: number;
      progressEnd: number | undefined;
      last: Seen | null;
      c10: string | undefined;
      kept: number | null;
      keptC10: string[] | undefined;
    }>('duplicateId');
    expect(r.pieces).toBe(5); // three of customers (the copy of c10 alone in the third)
    expect(r).toMatchObject({ saved: true, lost: 0, progressEnd: 4_001 });
    // 4,000 ids under A's ops (c2 deleted, one created); c1 keeps its queued rename.
    expect(r.count).toBe(4_000);
    expect(r.last).toEqual({ count: 4_000, prefixes: ['D:'], c1: 'Local', pending: 3 });
    expect(r.c10).toBe('D: last copy');
    // The page's kept copy (what the list adopts) holds each id once too, the same copy.
    expect(r.kept).toBe(4_000);
    expect(r.keptC10).toEqual(['D: last copy']);
  });

  it("reports a snapshot's count as the table holds it: an id listed twice once, a queued create too", async () => {
    const r = await outcome<{
      clean: number | null;
      cleanTable: number;
      underOp: number | null;
      underOpTable: number;
    }>('countsReported');
    expect(r).toEqual({ clean: 4_000, cleanTable: 4_000, underOp: 3_001, underOpTable: 3_001 });
  });

  it('saves a delta that lists one id twice across two pieces, its last copy winning', async () => {
    const r = await outcome<{
      saved: boolean | null;
      count: number | null;
      lost: number;
      c5: string;
    }>('duplicateInDelta');
    expect(r).toEqual({ saved: true, count: 2_000, lost: 0, c5: 'E: last copy' });
  });

  it('ends a stream whose save throws inside its transaction: reported unsaved, the cache as it was, the road goes on', async () => {
    const r = await outcome<{
      during: number;
      streams: Array<{ saved: boolean | null; count: number | null }>;
      lost: number[];
      ends: number[];
      mirror: number | null;
      last: Seen | null;
    }>('failedSaves');
    // The first save ended before its last pieces came (A as it was), and still reported.
    expect(r.during).toBe(2_000);
    // Each stream's end is reported unsaved, and the road lost there (the page then recovers).
    expect(r.streams).toEqual([
      { saved: false, count: null },
      { saved: false, count: null },
      { saved: false, count: null },
    ]);
    expect(r.lost).toEqual(r.ends);
    // The mirror behind them applied, over A as it was.
    expect(r.mirror).toBe(2_000);
    expect(r.last).toEqual({ count: 2_000, prefixes: ['A:'], c1: 'Local', pending: 1 });
  });
});
