// The CustomerCache on Chromium's real IndexedDB: one transaction per write (a liveQuery never
// sees a half state), the overlay of queued ops, temp-id resolution, migrations, and restarts;
// and the page's CustomerFeed following the writes of the real cache worker (CacheWriter).
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, launchProfile, tempDir } from '../support/browser';
import { buildTestPages } from './support/bundle';
import { openCachePage, scenario } from './support/pages';
import { Harness, newFields, tempId } from '../support/main';

let out: Awaited<ReturnType<typeof tempDir>>;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  out = await tempDir('fieldmap-cache-page-');
  await buildTestPages(out.path);
  browser = await launchBrowser();
  context = await browser.newContext();
  page = await openCachePage(context, out.path);
});

afterAll(async () => {
  await browser?.close();
  await out?.remove();
});

/** The only secondary index left: the outbox mirror's order (`orderBy('seq')`). */
const CURRENT_INDICES = {
  customers: [],
  server: [],
  routes: [],
  territories: [],
  user: [],
  meta: [],
  pending: ['seq'],
};

type Summary = {
  count: number;
  prefixes: string[];
  c1: string | null;
  c2: boolean;
  temp: boolean;
  route: string[] | null;
  pending: number;
};

describe('CustomerCache', () => {
  it('writes each snapshot, op mirror and delta in one transaction; a liveQuery sees only whole states', async () => {
    const { emissions, rwPerWrite } = await scenario<{
      emissions: Summary[];
      rwPerWrite: number[];
    }>(page, 'atomicity');
    expect(rwPerWrite).toEqual([1, 1, 1, 1]);
    // Every observed state is one of the whole states, in order.
    const kinds = emissions.map((s) => {
      if (s.count === 0) return 'empty';
      if (
        s.pending === 0 &&
        s.count === 2000 &&
        s.prefixes.join() === 'A:' &&
        s.c1?.startsWith('A:')
      )
        return 'A';
      const overlaid =
        s.pending === 4 && s.c1 === 'Local name' && !s.c2 && s.temp && s.route?.length === 2;
      if (overlaid && s.count === 2000 && s.prefixes.join() === 'A:') return 'A+ops';
      if (overlaid && s.count === 3000 && s.prefixes.join() === 'B:') return 'B+ops';
      if (overlaid && s.count === 3000 && s.prefixes.join() === 'D:') return 'D+ops';
      return `half state: ${JSON.stringify(s)}`;
    });
    expect(kinds.filter((k) => k.startsWith('half'))).toEqual([]);
    expect([...new Set(kinds)]).toEqual(['empty', 'A', 'A+ops', 'B+ops', 'D+ops']);
  });

  it('overlays queued ops, keeps the server record as the base, and undoes them when the ops go', async () => {
    const { afterOps, afterClear } = await scenario<{
      afterOps: Record<string, unknown>;
      afterClear: Record<string, unknown>;
    }>(page, 'overlay');
    expect(afterOps.c1Name).toBe('Local name');
    expect(afterOps.c1Pending).toBe(1);
    expect(afterOps.c1Fields).toEqual(['name']);
    expect(afterOps.baseName).toBe(afterOps.serverName);
    expect(afterOps.baseName).not.toBe('Local name');
    expect(afterOps.c2).toBe(false);
    expect(afterOps.createdName).toBe('New local');
    expect(afterOps.createdPending).toBe(1);
    // Route points in op order, from the shown records, as "<lat>,<lng>".
    expect(afterOps.routePoints).toEqual([afterOps.expectedFirstPoint, '10,20']);
    expect(afterOps.count).toBe(50); // +1 created, -1 deleted
    expect(afterClear).toEqual({
      c1Name: afterOps.serverName,
      c1Pending: null,
      c2: true,
      temp: false,
      route: false,
      count: 50,
      server: 0,
    });
  });

  it('rewrites only what a change of the queue changed, ending as undoing and redoing all would', async () => {
    // Random sends, batches, state changes, retries, discards and acknowledged versions, each
    // compared with the cache rebuilt from scratch; seeds fixed so a failure replays.
    for (const seed of [1, 2]) {
      const differs = await scenario<unknown>(page, 'overlayMatchesRebuild', seed, 40, 40);
      expect(differs, `seed ${seed}`).toBeNull();
    }
  });

  it('applies a delta under a local edit: server fields change, the rep edit stays on top', async () => {
    const r = await scenario<Record<string, unknown>>(page, 'deltaUnderEdit');
    expect(r).toEqual({
      shownName: 'Local name',
      shownCity: 'Server city',
      baseName: 'Server name',
      c3: false,
      r0: false,
      lastSync: 3,
    });
  });

  it('applies a delta only over the pull it follows; one after a restart drops what the service lost', async () => {
    const r = await scenario<{
      pulledAt: number;
      wrong: string | null;
      afterWrong: Record<string, unknown>;
      right: string | null;
      after: Record<string, unknown>;
    }>(page, 'deltaBase');
    const held = { c0: true, made: true, temp: true, c1: 'Local name' };
    expect(r.wrong).toMatch(/a delta from the pull of \d+ reached a cache holding \d+/);
    expect(r.afterWrong).toMatchObject({ ...held, lastSync: r.pulledAt });
    expect(r.afterWrong['c5']).not.toBe('Renamed');
    expect(r.right).toBeNull();
    expect(r.after).toEqual({
      c5: 'Renamed',
      c0: false,
      made: false,
      temp: true,
      c1: 'Local name',
      lastSync: r.pulledAt + 1,
    });
  });

  it("keeps a new customer listed through main's real events as its create is acknowledged", async () => {
    // Main as the app wires it: the engine's events, and the outbox's changes as account-runtime
    // announces them, recorded in the order they were sent.
    const h = await Harness.start();
    try {
      h.outbox.onChange((ops) =>
        h.events.push({ event: 'outbox:changed', payload: { accountKey: h.accountKey, ops } }),
      );
      await h.engine.syncNow();
      const temp = tempId(1);
      await h.outbox.enqueue({
        kind: 'createCustomer',
        target: temp,
        payload: newFields('Replayed Create', { latitude: 45, longitude: 5 }),
        base: null,
      });
      expect((await h.engine.syncNow()).kind).toBe('synced');
      const id = h.resolvedIds().get(temp);
      expect(id).toBeDefined();
      const seen = await scenario<Array<{ event: string; ids: string[] }>>(
        page,
        'replay',
        structuredClone(h.events),
        'Replayed Create',
      );
      const fromQueued = seen.slice(seen.findIndex((s) => s.ids.length > 0));
      // Shown from the moment it is queued to the end, once: under the temp id, then the server's.
      expect(fromQueued.filter((s) => s.ids.length !== 1)).toEqual([]);
      expect(fromQueued[0]!.ids).toEqual([temp]);
      expect(fromQueued.at(-1)!.ids).toEqual([id]);
    } finally {
      await h.dispose();
    }
  });

  it('rewrites a resolved temp id in records, ops and route references', async () => {
    const r = await scenario<Record<string, unknown>>(page, 'resolve');
    expect(r.temp).toBe(false);
    expect(r.resolvedName).toBe('New local');
    expect(r.resolvedCity).toBe('Later');
    expect(r.targets).toEqual([
      'c1',
      'c2',
      'SRV0000001',
      'tmp_00000000-0000-4000-8000-000000000002',
      'SRV0000001',
    ]);
    expect(r.routeIds).toEqual(['c1', 'SRV0000001']);
    expect(r.byTarget).toBe(2);
  });

  it('upgrades a version-1 cache in place to the current schema', async () => {
    const r = await scenario<Record<string, unknown>>(page, 'migrateV1');
    expect(r.v1Version).toBe(1);
    expect(r.version).toBe(3);
    expect(r.same).toBe(true);
    expect(r.customers).toBe(10);
    expect(r.pending).toBe(1);
    expect(r.schemaVersion).toBe(3);
    expect(r.indices).toEqual(CURRENT_INDICES);
  });

  // v2 was the schema of every cache written before the indices were trimmed.
  it('upgrades a version-2 cache with queued ops in place: every row kept, unused indices dropped', async () => {
    const r = await scenario<Record<string, unknown>>(page, 'upgradeWithPendingOps', 2);
    expect(r.oldVersion).toBe(2);
    expect((r.oldIndices as Record<string, string[]>).customers).toHaveLength(9);
    expect((r.oldIndices as Record<string, string[]>).pending).toEqual(['seq', 'target']);
    expect(r.version).toBe(3);
    expect(r.schemaVersion).toBe(3);
    expect(r.same).toBe(true);
    // 500 server customers, +1 created and -1 deleted by the queued ops; 3 originals kept.
    expect(r.counts).toMatchObject({ customers: 500, server: 3, pending: 4, routes: 4 });
    expect(r.pendingOps).toEqual(['op1', 'op2', 'op3', 'op4']);
    expect(r.c1).toBe('Local name');
    expect(r.indices).toEqual(CURRENT_INDICES);
    expect(r.afterClear).toEqual({ c1: true, customers: 500, server: 0 });
  });

  it('reopens a cache of the current schema with queued ops unchanged', async () => {
    const r = await scenario<Record<string, unknown>>(page, 'upgradeWithPendingOps', 3);
    expect(r.oldVersion).toBe(3);
    expect(r.version).toBe(3);
    expect(r.same).toBe(true);
    expect(r.pendingOps).toEqual(['op1', 'op2', 'op3', 'op4']);
    expect(r.indices).toEqual(CURRENT_INDICES);
    expect(r.afterClear).toEqual({ c1: true, customers: 500, server: 0 });
  });
});

describe('CustomerCache persistence', () => {
  it('survives closing and relaunching the browser on the same profile', async () => {
    const profile = await tempDir('fieldmap-profile-');
    try {
      let ctx = await launchProfile(profile.path);
      let p = await openCachePage(ctx, out.path);
      const name = await scenario<string>(p, 'persistWrite', 'http://127.0.0.1:1#demo', 1500);
      expect(name).toMatch(/^fieldmap-[0-9a-f]{16}$/);
      await ctx.close();

      ctx = await launchProfile(profile.path);
      p = await openCachePage(ctx, out.path);
      const r = await scenario<Record<string, unknown>>(
        p,
        'persistRead',
        'http://127.0.0.1:1#demo',
      );
      await ctx.close();
      expect(r.count).toBe(1500);
      expect(r.c1).toBe('Local name');
      expect(r.pending).toBe(4);
      expect(r.lastSync).toBe(1_700_000_000_009);
      expect(r.databases).toContain(name);
    } finally {
      await profile.remove();
    }
  });
});

type FeedSeen = { count: number; prefixes: string[]; ordered: boolean };

describe('CustomerFeed', () => {
  it('follows the cache worker: whole states only, small writes patched in key order', async () => {
    const result = await page.evaluate(() =>
      (
        globalThis as unknown as { feedScenarios: { follow(): Promise<unknown> } }
      ).feedScenarios.follow(),
    );
    const { seen, ...rest } = result as { seen: FeedSeen[] } & Record<string, unknown>;
    // Each published state is the empty cache or a whole snapshot (A's 12,000 or B's 3,000).
    const whole = (s: FeedSeen) =>
      s.ordered &&
      (s.count === 0 ||
        (s.count === 12_000 && s.prefixes.join() === 'A:') ||
        (s.count === 3_000 && s.prefixes.join() === 'B:'));
    expect(seen.filter((s) => !whole(s))).toEqual([]);
    expect(seen.at(-1)).toEqual({ count: 3_000, prefixes: ['B:'], ordered: true });
    expect(rest).toEqual({
      // The edit replaced one record's object; the other 11,999 are the objects read before.
      keptObjects: 11_999,
      editedName: 'Local',
      sameAsCache: true,
      hasDeleted: false,
      lastKeepsOps: true,
    });
  });

  it("reads every customer in pieces while the page's zero-delay timers are held, as in a hidden window", async () => {
    const r = await page.evaluate(() =>
      (
        globalThis as unknown as { feedScenarios: { heldTimers(): Promise<unknown> } }
      ).feedScenarios.heldTimers(),
    );
    expect(r).toEqual({ shown: 6_000 });
  });

  it("reads back only a bulk change's customers: the other records keep their objects", async () => {
    const result = await page.evaluate(() =>
      (
        globalThis as unknown as { feedScenarios: { bulk(): Promise<unknown> } }
      ).feedScenarios.bulk(),
    );
    expect(result).toEqual({
      changed: 355,
      keptObjects: 12_000 - 355,
      coloured: 355,
      sameIds: true,
    });
  });

  it('shows a kept snapshot before its save commits, over an empty cache with nothing queued', async () => {
    const result = await page.evaluate(() =>
      (
        globalThis as unknown as { feedScenarios: { preview(): Promise<unknown> } }
      ).feedScenarios.preview(),
    );
    expect(result).toEqual({
      previewed: {
        // Shown while the cache held none of it.
        cachedWhenShown: 0,
        saved: 6_000,
        adopted: true,
        // The empty cache, the preview, the edit: the commit published nothing new.
        seen: [0, 6_000, 6_000],
        // The edited array is a patch of the previewed one: only c1 was read again.
        changedSinceShown: ['c1'],
        keptObjects: 5_999,
        sameIdsAsCache: true,
      },
      // Shown, let go (back to the empty cache), then with a change queued not shown: the next
      // state is the 10 customers committed.
      dropped: { seen: [0, 4_000, 0, 10] },
    });
  });

  it('adopts the snapshot the page kept while the worker saved it, with the overlay read from the cache', async () => {
    const result = await page.evaluate(() =>
      (
        globalThis as unknown as { feedScenarios: { adopt(): Promise<unknown> } }
      ).feedScenarios.adopt(),
    );
    expect(result).toEqual({
      // 12,000 sent; the queued delete removes c2 and the create adds one.
      adoptedA: {
        count: 12_000,
        taken: 1,
        // Every record no op touched is the very object the page parsed from the piece's text:
        // the feed did not read them back. c1 (edited) is the cache's row; c2 is gone.
        keptObjects: 11_998,
        sameAsCache: true,
        edited: 'Local',
        deleted: true,
        created: true,
      },
      // Pieces through the page carry no text: nothing kept, the cache is read back.
      readB: { taken: 1, sameAsCache: true },
      adoptedC: { taken: 2, sameAsCache: true },
      // A resolved id puts a record into the server data: the snapshot marker goes.
      markerAfterResolve: null,
    });
  });
});
