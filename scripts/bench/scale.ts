// Bench module (run by scripts/bench.ts): the product at scale (issue 13). The browser runner's
// real main services and the built renderer in Chromium (test/support/app.ts, as the e2e suites),
// against the reference service with FIELDMAP_SCALE_N customers (100,000 by default) on loopback,
// in a process of its own (as a real service is never in main's), with its real 3 req/s limit
// and main's real limiter. Timing runs in the page (performance.now,
// PerformanceObserver 'longtask', the map's 'fieldmap:map-drawn' mark). Per run:
// - first sync: login to every customer listed and the map drawn with every mapped pin; its
//   baseline: 4 GETs of the same account paced at 3 req/s plus JSON.parse (Node, as main), plus a
//   raw IndexedDB put of the same records into a store with no index (the same Chromium binary and
//   flags, a browser and profile of its own, before the sign-in);
// - filters and sorts: each sort button and filter option, input to the next painted frame;
//   for a filter also input to the map holding exactly the filtered pins (the map's
//   'fieldmap:map-filter-applied' mark: its last chunk sent to MapLibre's worker), and the
//   longest task while they ran;
// - export: Export CSV of the whole list to the download written;
// - cold start: restart offline, navigation start to list filled and map drawn; its baseline:
//   raw IndexedDB getAll of those records plus bare MapLibre to idle with 100k clustered points
//   (the renderer-map bench's bare page, same base style);
// - edit to pin: Save of a new colour in the editor to the edited pin in its new colour in the
//   map's source of changed pins and the next painted frame, median of 10 edits;
// - bulk: a box around ~355 customers of one town, Set colour, until the service answered every
//   change; the page's longest task meanwhile, and the worst "time left" of the Selection panel
//   and of the status bar against "Synced" (support/bulk.ts);
// - main's RSS: main's services run in a child Node process of their own (the harness's
//   mainInChild), as Electron's main process is, the page driven from the bench over CDP; its peak
//   RSS while a second full sync runs (secondSyncRssMb), by its pid. That process holds what
//   Electron's main has not: the playwright-core client that launched Chromium and serves the
//   renderer's files (runner_playwright_client_rss_mb: its own RSS, measured in a process of its
//   own each bench) and tsx's loader; not the bench's records, nor its Playwright client.
// Medians over FIELDMAP_SCALE_RUNS runs (3 by default); build the renderer first (electron-vite build).
// FIELDMAP_SCALE_ONLY=filters: only the first sync and the filters and sorts (a few minutes less);
// FIELDMAP_SCALE_ONLY=bulk: only the first sync and the bulk change.
// FIELDMAP_SCALE_ONLY=reconnect: only the first sync and the reconnect after a restart.
// FIELDMAP_SCALE_ONLY=rss: only the first sync and main's RSS through a second one.
// FIELDMAP_SCALE_ONLY=plan: only the first sync, the bulk's box selected (no change made) and the
// week plan of its customers.
// FIELDMAP_SCALE_ONLY=export: only the first sync and the Export CSV of the whole list.
// FIELDMAP_SCALE_ONLY=first: only the first sync, its longest task and app task, and bare MapLibre.
// FIELDMAP_SCALE_ONLY=cold: only the first sync and the cold start, with its floor (the raw put
// and getAll, bare MapLibre). FIELDMAP_TRACE_STARTUP=<file> (browser-runner/launch.ts) traces a
// launch from Chromium's start, the restarted page's first moments included.
import type { Page } from 'playwright-core';
import { positionOf } from '../../src-shared/geo';
import { PALETTE, type Customer } from '../../src-shared';
import {
  MAP_DRAWN_MARK,
  MAP_SOURCE_PATCH_MARK,
  MAP_SOURCE_RELOAD_MARK,
} from '../../src-renderer/src/map/drawn-mark';
import { FEED_READ_ALL_MARK } from '../../src-renderer/src/cache/feed-mark';
import { RECENT_SOURCE } from '../../src-renderer/src/map/layers/customer-layer-specs';
import { MemoryCredentialStore } from '../browser-runner/credentials';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { launchApp, type AppHandle } from '../../test/support/app';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchBrowser, launchProfile } from '../../test/support/browser';
import { serveMapPages } from '../../test/renderer/map-fixtures/pages';
import { median, p95, round } from './support/stats';
import { playwrightClientRssMb } from './support/playwright-client';
import { memoryText } from './support/main-memory';
import { filterSortTimes } from './support/list-filters';
import { profiled, profiling } from './support/profile';
import {
  bulkBox,
  bulkColour,
  selectBox,
  timeLeftSaid,
  worstError,
  type BulkResult,
  type Sample,
} from './support/bulk';
import {
  idleAt,
  installRevertSampler,
  PAGE_PROBE,
  longestAppTask,
  startFrames,
  startTimeline,
  stopFrames,
  stopTimeline,
  stopRevertSampler,
} from './support/felt';

const N = Number(process.env['FIELDMAP_SCALE_N'] ?? 100_000) || 100_000;
const RUNS = Math.max(1, Number(process.env['FIELDMAP_SCALE_RUNS'] ?? 3) || 3);
const K = N >= 1000 ? `${Math.round(N / 1000)}k` : String(N);
const LIMIT_MS = 30 * 60_000;
const EDITS = 10;
/** A run's key groups, in the full run's order. */
const KEY_GROUPS = [
  'first',
  'firstFloor',
  'cold',
  'bare',
  'edits',
  'reconnect',
  'rss',
  'app',
  'firstLongest',
  'filters',
  'export',
  'plan',
  'bulk',
] as const;
type KeyGroup = (typeof KEY_GROUPS)[number];
/** The partial modes (FIELDMAP_SCALE_ONLY) and the key groups each reports. */
const PARTIAL_MODES: Record<string, readonly KeyGroup[]> = {
  filters: ['first', 'filters'],
  bulk: ['first', 'bulk'],
  reconnect: ['first', 'reconnect'],
  rss: ['first', 'rss'],
  edits: ['first', 'edits', 'app'],
  cold: ['first', 'cold', 'bare', 'app'],
  first: ['first', 'firstLongest', 'bare', 'app'],
  plan: ['first', 'plan'],
  export: ['first', 'export'],
};
const ONLY = process.env['FIELDMAP_SCALE_ONLY'] ?? '';
if (ONLY !== '' && !Object.hasOwn(PARTIAL_MODES, ONLY))
  throw new Error(
    `FIELDMAP_SCALE_ONLY=${ONLY}: no such mode (${Object.keys(PARTIAL_MODES).join(', ')})`,
  );
const MODE_GROUPS: readonly KeyGroup[] = PARTIAL_MODES[ONLY] ?? KEY_GROUPS;
const PARTIAL = ONLY !== '';
const ONLY_FILTERS = ONLY === 'filters';
const ONLY_BULK = ONLY === 'bulk';
const ONLY_RECONNECT = ONLY === 'reconnect';
const ONLY_RSS = ONLY === 'rss';
const ONLY_EDITS = ONLY === 'edits';
const ONLY_COLD = ONLY === 'cold';
const ONLY_PLAN = ONLY === 'plan';
const ONLY_EXPORT = ONLY === 'export';
const ONLY_FIRST = ONLY === 'first';
/** The runs that measure the cold start's floor (raw put and getAll, bare MapLibre). */
const FLOOR = !PARTIAL || ONLY_COLD;
/** The runs that measure bare MapLibre (the floor of the first sync's and cold start's tasks). */
const BARE = FLOOR || ONLY_FIRST;

type Probe = { longtasks: Array<{ start: number; duration: number }> };
type Op = { target: string };

/**
 * The probe (PAGE_PROBE) on a page that may not have run it from its start: the app's page has
 * (the harness's pageProbe), the baselines' pages have not.
 */
async function installProbe(page: Page): Promise<void> {
  await page.evaluate(PAGE_PROBE);
}

/** The longest long task that started in [from, to] (page time), 0 when none. */
function longestTask(page: Page, from: number, to: number): Promise<number> {
  return page.evaluate(
    ([a, b]) => {
      const { longtasks } = (globalThis as unknown as { __scale: Probe }).__scale;
      return Math.max(
        0,
        ...longtasks.filter((t) => t.start >= a && t.start <= b).map((t) => t.duration),
      );
    },
    [from, to] as const,
  );
}

/** How long any one wait of the bench may take before it fails, naming what it waited for. */
const WAIT_MS = Number(process.env['FIELDMAP_SCALE_WAIT_MS'] ?? 10 * 60_000) || 10 * 60_000;

/**
 * Page time when the list shows `count` customers, the map was drawn with `mapped` pins and the
 * status no longer says data is on its way (data-sync neither 'syncing' nor 'saving': the list
 * and the map may fill before the save into the cache commits, and the sync is not over then).
 * Rejects after WAIT_MS with what the page showed instead (rows, status, the drawn marks).
 */
function filledAt(page: Page, count: number, mapped: number, since = 0): Promise<number> {
  return page.evaluate(
    ([count, mapped, mark, waitMs, since]) =>
      new Promise<number>((resolve, reject) => {
        let listAt: number | null = null;
        let settledAt: number | null = null;
        const started = performance.now();
        const check = () => {
          const rows = document
            .querySelector('[aria-label="Customers"]')
            ?.getAttribute('data-rows');
          if (listAt === null && rows === String(count)) listAt = performance.now();
          const marks = (performance.getEntriesByName(mark) as PerformanceMark[]).filter(
            (m) => m.startTime >= since,
          );
          const drawn = marks.find((m) => m.detail?.customers === mapped);
          const sync = document.querySelector('[data-sync]')?.getAttribute('data-sync');
          if (listAt === null || sync === 'syncing' || sync === 'saving') settledAt = null;
          else settledAt ??= performance.now();
          if (settledAt !== null && drawn) return resolve(Math.max(settledAt, drawn.startTime));
          if (performance.now() - started > waitMs) {
            const status = document.querySelector('[role="status"]')?.textContent?.trim();
            const drawnWith = marks.map((m) => String(m.detail?.customers)).join(', ');
            return reject(
              new Error(
                `waited ${Math.round(waitMs / 1000)} s for the list to show ${count} rows and ` +
                  `the map drawn with ${mapped} pins; the list showed ${rows ?? 'no list'}, ` +
                  `the map was drawn with [${drawnWith}], the status read "${status ?? ''}"`,
              ),
            );
          }
          setTimeout(check, 50);
        };
        check();
      }),
    [count, mapped, MAP_DRAWN_MARK, WAIT_MS, since] as const,
  );
}

/**
 * Main's pull of the account, as a floor: the 4 GETs at 3 req/s (a 429 waits its Retry-After,
 * as main's client does), each body parsed. Run while no app talks to the account.
 */
async function pullMs(service: BenchService): Promise<number> {
  const auth = authorizationOf(service);
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));
  const t0 = performance.now();
  for (const [i, path] of ['customers', 'routes', 'territories', 'user'].entries()) {
    await sleep(t0 + i * 334 - performance.now());
    for (;;) {
      // A kept-alive socket the service closed (its keepAliveTimeout) while the last body was
      // parsed on a loaded machine fails at once: asked again on a new one.
      const response = await fetch(`${service.url}/api/v1/${path}`, {
        headers: { authorization: auth },
      }).catch((error: unknown) => {
        const code = (error as { cause?: { code?: string } }).cause?.code;
        if (code === 'UND_ERR_SOCKET') return null;
        throw error;
      });
      if (response === null) continue;
      const body = await response.text();
      if (response.status === 429) {
        await sleep(Number(response.headers.get('retry-after') ?? 1) * 1000);
        continue;
      }
      if (!response.ok) throw new Error(`GET ${path}: ${response.status}`);
      JSON.parse(body);
      break;
    }
  }
  return performance.now() - t0;
}

/**
 * The IndexedDB floors run in a Chromium of their own (the same binary and flags, its own
 * profile, kept for the run so the getAll reads what the put wrote), never in the app's. In the
 * app's page the put's 100k records and ~14 s task sat in the app's heap and held its UI thread
 * (the filters right after it met that heap's garbage collection); in another page of the app's
 * browser, the backend's work after the put (LevelDB compaction of 76 MB) still ran during the
 * app's first sync.
 */
const BASELINE_ORIGIN = 'http://scale-baseline.invalid';

async function withBaselinePage<T>(
  profileDir: string,
  run: (page: Page) => Promise<T>,
): Promise<T> {
  const context = await launchProfile(profileDir);
  try {
    await context.route(`${BASELINE_ORIGIN}/**`, (route) =>
      route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>floor</title>' }),
    );
    const page = await context.newPage();
    await page.goto(`${BASELINE_ORIGIN}/`);
    return await run(page);
  } finally {
    await context.close();
  }
}

/** Raw IndexedDB: put `records` into a store without indices (ms), in the app's Chromium. */
async function rawPut(page: Page, records: Customer[]): Promise<number> {
  // Handed over in pieces (one 100k argument is a message too large for the page's connection).
  await page.evaluate(() => ((globalThis as unknown as { __records: Customer[] }).__records = []));
  for (let i = 0; i < records.length; i += 10_000) {
    await page.evaluate(
      (part) => {
        (globalThis as unknown as { __records: Customer[] }).__records.push(...part);
      },
      records.slice(i, i + 10_000),
    );
  }
  return page.evaluate(async () => {
    const g = globalThis as unknown as { __records: Customer[] };
    const records = g.__records;
    g.__records = [];
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open('scale-baseline', 1);
      open.onupgradeneeded = () => open.result.createObjectStore('customers', { keyPath: 'id' });
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const t0 = performance.now();
    await new Promise<void>((resolve, reject) => {
      const tx = db.transaction('customers', 'readwrite');
      const store = tx.objectStore('customers');
      store.clear();
      for (const r of records) store.put(r);
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error);
    });
    const ms = performance.now() - t0;
    db.close();
    return ms;
  });
}

/** Raw IndexedDB getAll of the baseline store (ms). */
function rawGetAll(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open('scale-baseline', 1);
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const t0 = performance.now();
    await new Promise((resolve) => {
      const get = db.transaction('customers').objectStore('customers').getAll();
      get.onsuccess = () => resolve(get.result);
    });
    const ms = performance.now() - t0;
    db.close();
    return ms;
  });
}

/**
 * Export CSV: click to the download written (ms), the longest task until then (the old key), and
 * the longest task and frame gap from the click until the page is idle again (the page's own work
 * after the download started: the worker's end, the panel's re-render, the collection of the
 * 100k structured clones' garbage, which the old window closed before).
 */
async function exportMs(
  app: AppHandle,
): Promise<{ ms: number; longest: number; uiLongest: number; uiGap: number }> {
  const gcs = process.env['FIELDMAP_SCALE_DEBUG'] ? await traceGc(app.page) : null;
  const from = await app.page.evaluate(() => performance.now());
  await startFrames(app.page);
  const t0 = Date.now();
  const [download] = await Promise.all([
    app.page.waitForEvent('download', { timeout: LIMIT_MS }),
    app.page.click('button:has-text("Export CSV")'),
  ]);
  await download.path();
  const ms = Date.now() - t0;
  const to = await app.page.evaluate(() => performance.now());
  const idle = await idleAt(app.page);
  const uiGap = await stopFrames(app.page);
  const uiLongest = await longestTask(app.page, from, Math.max(to, idle));
  if (gcs) console.error(`export's GC pauses over 10 ms:\n  ${(await gcs()).join('\n  ')}`);
  // FIELDMAP_SCALE_DEBUG=1: every long task from the click to idle (ms after the click: ms).
  if (process.env['FIELDMAP_SCALE_DEBUG'])
    console.error(
      'export long tasks',
      await app.page.evaluate(
        ([a, b]) =>
          (globalThis as unknown as { __scale: Probe }).__scale.longtasks
            .filter((t) => t.start >= a && t.start <= b)
            .map((t) => `${Math.round(t.start - a)}: ${Math.round(t.duration)}`)
            .join(', '),
        [from, Math.max(to, idle)] as const,
      ),
    );
  if (process.env['FIELDMAP_SCALE_DEBUG'])
    console.error(
      `export ${ms} ms; longest task to the file ${Math.round(await longestTask(app.page, from, to))}` +
        ` ms, to idle (${Math.round(idle - from)} ms after the click) ${Math.round(uiLongest)} ms;` +
        ` longest frame gap ${Math.round(uiGap)} ms`,
    );
  return { ms, longest: await longestTask(app.page, from, to), uiLongest, uiGap };
}

/**
 * FIELDMAP_SCALE_DEBUG: traces the page's garbage collections from now on; the function returned
 * stops and names those over 10 ms (kind: ms), which a CPU profile shows only as one lump.
 */
async function traceGc(page: Page): Promise<() => Promise<string[]>> {
  type TraceEvent = {
    name: string;
    ph: string;
    ts: number;
    dur?: number;
    tid: number;
    args?: { name?: string; usedHeapSizeBefore?: number; usedHeapSizeAfter?: number };
  };
  const cdp = await page.context().newCDPSession(page);
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', (e) => events.push(...(e.value as unknown as TraceEvent[])));
  await cdp.send('Tracing.start', {
    categories: 'v8,devtools.timeline,disabled-by-default-v8.gc,__metadata',
    transferMode: 'ReportEvents',
  });
  return async () => {
    const done = new Promise<void>((resolve) =>
      cdp.once('Tracing.tracingComplete', () => resolve()),
    );
    await cdp.send('Tracing.end');
    await done;
    await cdp.detach();
    const threads = new Map<number, string>();
    for (const e of events)
      if (e.ph === 'M' && e.name === 'thread_name') threads.set(e.tid, e.args?.name ?? '?');
    const t0 = Math.min(...events.filter((e) => e.ts > 0).map((e) => e.ts));
    return events
      .filter((e) => /^(MajorGC|MinorGC|V8\.GCFinalizeMC.*)$/.test(e.name))
      .filter((e) => (e.dur ?? 0) > 10_000)
      .map((e) => {
        const mb = (b?: number) => (b === undefined ? '?' : Math.round(b / 2 ** 20));
        const heap = e.args?.usedHeapSizeBefore
          ? ` (heap ${mb(e.args.usedHeapSizeBefore)} -> ${mb(e.args.usedHeapSizeAfter)} MB)`
          : '';
        return (
          `${e.name} on ${threads.get(e.tid) ?? e.tid} at ${Math.round((e.ts - t0) / 1000)}: ` +
          `${Math.round((e.dur ?? 0) / 1000)}${heap}`
        );
      });
  };
}

/** Customers whose name no other customer's name contains: a search for it lists one row. */
function editTargets(records: Customer[], count: number): Customer[] {
  const names = records.map((c) => c.name.toLowerCase());
  const out: Customer[] = [];
  for (let i = 0; i < records.length && out.length < count; i += 97) {
    const c = records[i]!;
    const name = names[i]!;
    if (positionOf(c) === null || name.trim().length < 4) continue;
    if (names.filter((n) => n.includes(name)).length === 1) out.push(c);
  }
  return out;
}

/**
 * Opens `target` in the editor and picks a colour it does not have NOW (an earlier run of this
 * bench on the same service already gave it the first colour unlike the seeded one, and saving
 * that again changes nothing, so no pin would ever be redrawn). Save is left to the caller.
 */
async function pickNewColour(
  page: Page,
  target: Customer,
): Promise<{ color: string; old: string }> {
  await page.fill('input[aria-label="Search customers"]', target.name);
  await page.click(`[aria-label="Customers"] button.customer-row[data-id="${target.id}"]`);
  await page.click('aside[aria-label="Customer details"] button:has-text("Edit")');
  const old =
    (await page
      .locator('input[name="color"]:checked')
      .getAttribute('value')
      .catch(() => null)) ?? target.color;
  const color = PALETTE.find((p) => p !== old)!;
  await page.check(`input[name="color"][value="${color}"]`);
  return { color, old };
}

/** The customer's colour as the service answers it now; null on a 429 (asked again later). */
async function serviceColour(service: BenchService, id: string): Promise<string | null> {
  const response = await fetch(`${service.url}/api/v1/customers/${encodeURIComponent(id)}`, {
    headers: { authorization: authorizationOf(service) },
  });
  if (response.status === 429) return null;
  if (!response.ok) throw new Error(`GET customer ${id}: ${response.status}`);
  return ((await response.json()) as Customer).color;
}

/**
 * Until the status bar says Synced, no queued change targets these customers and the service
 * answers each with its new colour (read back over HTTP only once the first two hold: each GET
 * takes one of the account's 3 requests a second from the app). Ms from the call; `bar`, when
 * given, takes each "about N left" the status bar said meanwhile, and `synced` when it first
 * said Synced with none of them queued (Date.now).
 */
async function syncedWith(
  app: AppHandle,
  service: BenchService,
  edits: Array<{ id: string; color: string }>,
  bar?: { samples: Sample[]; synced: number },
): Promise<number> {
  const t0 = Date.now();
  const onService = new Set<string>();
  let said = '';
  for (;;) {
    const sync = await app.page.getAttribute('[data-sync]', 'data-sync').catch(() => null);
    // FIELDMAP_SCALE_DEBUG=1: the status bar's words on the way, with ms since the start.
    if (process.env['FIELDMAP_SCALE_DEBUG']) {
      const text = await app.page
        .locator('footer, .sync-status')
        .first()
        .innerText()
        .catch(() => '');
      if (text !== said) console.error(`${Date.now() - t0} ms: ${text.replace(/\s+/g, ' ')}`);
      said = text;
    }
    if (bar && sync !== 'synced') {
      const shown = await app.page.textContent('.sync-status .text').catch(() => null);
      const leftS = timeLeftSaid(shown ?? '');
      if (leftS !== null) bar.samples.push({ at: Date.now(), leftS });
    }
    if (sync === 'synced') {
      const queued = new Set((await app.call<Op[]>('listOps')).map((op) => op.target));
      if (edits.every((e) => !queued.has(e.id))) {
        if (bar && bar.synced === 0) bar.synced = Date.now();
        for (const e of edits)
          if (!onService.has(e.id) && (await serviceColour(service, e.id)) === e.color)
            onService.add(e.id);
        if (onService.size === edits.length) return Date.now() - t0;
      }
    }
    if (Date.now() - t0 > WAIT_MS)
      throw new Error(
        `waited ${Math.round(WAIT_MS / 1000)} s for Synced with ${edits.length} edits on the ` +
          `service; the status said ${sync ?? 'nothing'}, the service had ${onService.size}`,
      );
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * Save in the editor (a new pin colour) to the map showing it: the edited customer's pin in the
 * new colour in the tiles of the map's source of changed pins, then the next painted frame (ms
 * per edit). Not the first map mark after the click: a mark of something else (a pull's delta
 * patching the previous edit, an idle of the map) came first now and then, and ended the wait
 * before this edit was drawn. Then, until the change is synced, every frame is sampled for a view
 * showing the old colour again (support/felt.ts); the next edit starts once it is synced.
 */
async function editToPin(
  app: AppHandle,
  service: BenchService,
  targets: Customer[],
): Promise<{ times: number[]; revertMs: number; flips: string[]; seen: Record<string, number> }> {
  const { page } = app;
  const times: number[] = [];
  const flips: string[] = [];
  // Edits in which each view showed the new colour at all: a view the sampler never read counts 0.
  const seen: Record<string, number> = {};
  let revertMs = 0;
  const patchedAfter: number[] = [];
  await installRevertSampler(page, RECENT_SOURCE);
  for (const target of targets) {
    const { color, old } = await pickNewColour(page, target);
    times.push(
      await page.evaluate(
        ([id, color, old, source, waitMs, patchMark]) =>
          new Promise<number>((resolve, reject) => {
            type Feature = { properties: Record<string, unknown> };
            const map = (
              document.querySelector('.fm-map') as Element & {
                fieldmapMap: { map: { querySourceFeatures(s: string): Feature[] } };
              }
            ).fieldmapMap.map;
            const save = [...document.querySelectorAll('button')].find(
              (b) => b.textContent?.trim() === 'Save changes',
            )!;
            (
              globalThis as unknown as { __revertStart(i: string, c: string, o: string): void }
            ).__revertStart(id, color, old);
            const t0 = performance.now();
            save.click();
            const check = () => {
              // In the map's tiles of its changed pins (loaded by MapLibre's worker: the next
              // frame draws it), in the new colour.
              const drawn = map
                .querySourceFeatures(source)
                .some((f) => f.properties['id'] === id && f.properties['color'] === color);
              if (!drawn && performance.now() - t0 > waitMs)
                return reject(
                  new Error(`waited ${Math.round(waitMs / 1000)} s after Save for ${id}'s pin`),
                );
              if (!drawn) return void setTimeout(check, 10);
              // FIELDMAP_SCALE_DEBUG: when the pin's patch reached the map's source (ms).
              const patched = performance
                .getEntriesByName(patchMark)
                .find((m) => m.startTime >= t0)?.startTime;
              (globalThis as unknown as { __patchedAfter?: number }).__patchedAfter =
                patched === undefined ? -1 : patched - t0;
              requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - t0), 0));
            };
            check();
          }),
        [target.id, color, old, RECENT_SOURCE, WAIT_MS, MAP_SOURCE_PATCH_MARK] as const,
      ),
    );
    if (process.env['FIELDMAP_SCALE_DEBUG'])
      patchedAfter.push(
        await page.evaluate(
          () => (globalThis as unknown as { __patchedAfter: number }).__patchedAfter,
        ),
      );
    await syncedWith(app, service, [{ id: target.id, color }]);
    const sample = await stopRevertSampler(page);
    revertMs += sample.revertMs;
    flips.push(...sample.flips.map((f) => `${target.id}: ${f}`));
    for (const view of sample.seen) seen[view] = (seen[view] ?? 0) + 1;
  }
  await page.fill('input[aria-label="Search customers"]', '');
  if (process.env['FIELDMAP_SCALE_DEBUG'])
    console.error('edit to the pin patched into the map source, ms', patchedAfter.map(Math.round));
  return { times, revertMs, flips, seen };
}

/** An edit of the colour saved in the editor, until the list row shows it (offline edits). */
async function editColour(page: Page, target: Customer): Promise<{ id: string; color: string }> {
  const { color } = await pickNewColour(page, target);
  await page.click('button:has-text("Save changes")');
  await page.waitForFunction(
    ([id, color]) =>
      document
        .querySelector(`[aria-label="Customers"] button.customer-row[data-id="${id}"] .dot`)
        ?.getAttribute('title') === color,
    [target.id, color] as const,
    { timeout: WAIT_MS },
  );
  return { id: target.id, color };
}

/**
 * Plans a week (5 days from the bulk's town) of the Selection panel's customers (the ~355 of the
 * bulk box), Make the plan to the plan shown and the page idle again: the longest task and frame
 * gap meanwhile, and click to the plan shown (ms).
 */
async function weekPlan(
  page: Page,
  records: Customer[],
): Promise<{ ms: number; longest: number; gap: number; stops: string }> {
  const { box } = bulkBox(records);
  if (!(await page.isVisible('aside.week-plan')))
    await page.click('button:has-text("Plan the week")');
  await page.waitForSelector('aside.week-plan');
  await page.selectOption('select[aria-label="Customers to plan"]', 'selection');
  const stops =
    (await page
      .locator('select[aria-label="Customers to plan"] option[value="selection"]')
      .textContent()) ?? '';
  await page.selectOption('select[aria-label="Start from"]', 'coords');
  const lat = (box.north + box.south) / 2;
  const lng = (box.east + box.west) / 2;
  await page.fill('input[aria-label="Start point"]', `${lat.toFixed(5)}, ${lng.toFixed(5)}`);
  await page.fill('input[aria-label="Number of days"]', '5');
  const from = await page.evaluate(() => performance.now());
  if (process.env['FIELDMAP_SCALE_DEBUG']) await page.evaluate(MAP_PARTS);
  await startFrames(page);
  await page.click('button:has-text("Make the plan")');
  const started = Date.now();
  while (!(await page.isVisible('.wp-result'))) {
    if (Date.now() - started > WAIT_MS)
      throw new Error(
        `no plan shown; the panel reads: ${await page.textContent('aside.week-plan')}`,
      );
    await page.waitForTimeout(50);
  }
  const ms = Date.now() - started;
  const idle = await idleAt(page);
  const gap = await stopFrames(page);
  if (process.env['FIELDMAP_SCALE_DEBUG']) {
    const t = await longestAppTask(page, from, idle);
    console.error(
      `week plan's longest task: ${Math.round(t.task)} ms at ${Math.round(t.at - from)} ms ` +
        `after the click, ${Math.round(t.render)} ms of it MapLibre's render`,
    );
    console.error(`week plan's long tasks, whose parts (ms):\n${await mapParts(page, from, idle)}`);
  }
  return { ms, longest: await longestTask(page, from, idle), gap, stops: stops.trim() };
}

/**
 * FIELDMAP_SCALE_DEBUG: MapLibre's parts of a frame and its GL calls that wait on the GPU process,
 * as spans, so a long task can be told apart: the render's parts, the tiles' loads, GL waits, the
 * map's events (our listeners), and each GL program as it is first linked. Spans nest (a GL call
 * inside painter.render counts in both). Plain text: tsx would rewrite a function's source.
 */
const MAP_PARTS = `(() => {
  const g = globalThis;
  if (g.__parts) { g.__parts.length = 0; return; }
  const parts = (g.__parts = []);
  const map = document.querySelector('.fm-map').fieldmapMap.map;
  const wrap = (o, name, label) => {
    const f = o[name];
    if (typeof f !== 'function') return;
    o[name] = function (...args) {
      const a = performance.now();
      try { return f.apply(this, args); } finally {
        const b = performance.now();
        if (b - a > 0.05) parts.push([typeof label === 'function' ? label(args) : label, a, b]);
      }
    };
  };
  const style = map.style;
  wrap(style, 'update', 'style.update');
  wrap(style, '_updateSources', 'style._updateSources');
  wrap(style, '_updatePlacement', 'style._updatePlacement');
  wrap(map.painter, 'render', 'painter.render');
  wrap(map._renderTaskQueue, 'run', 'renderTaskQueue.run');
  wrap(map, 'fire', (args) => 'fire ' + (args[0] && args[0].type) + (args[0] && args[0].sourceId ? ' ' + args[0].sourceId : ''));
  const tiles = Object.values(style.tileManagers || {}).flatMap((m) => (m._inViewTiles && m._inViewTiles.getAllTiles ? m._inViewTiles.getAllTiles() : []));
  const tileProto = tiles.length ? Object.getPrototypeOf(tiles[0]) : null;
  if (tileProto) { wrap(tileProto, 'loadVectorData', 'tile.loadVectorData'); wrap(tileProto, 'upload', 'tile.upload'); }
  const seen = new Set(Object.keys(map.painter.programCache.programs || {}));
  map.on('render', () => {
    for (const k of Object.keys(map.painter.programCache.programs || {}))
      if (!seen.has(k)) { seen.add(k); const t = performance.now(); parts.push(['program ' + k.slice(0, 160), t, t + 0.001]); }
  });
  const gl = map.painter.context.gl;
  for (const n of ['getProgramParameter','linkProgram','compileShader','getShaderParameter','readPixels','bufferData','bufferSubData','texImage2D','texSubImage2D','getError','finish','drawElements','drawArrays','clear'])
    wrap(gl, n, 'gl.' + n);
})()`;

/** FIELDMAP_SCALE_DEBUG: the long tasks in [from, to] with the MAP_PARTS spans inside each. */
function mapParts(page: Page, from: number, to: number): Promise<string> {
  return page.evaluate(
    ([a, b]) => {
      const g = globalThis as unknown as {
        __scale: { longtasks: Array<{ start: number; duration: number }> };
        __parts?: Array<[string, number, number]>;
      };
      const out: string[] = [];
      for (const t of g.__scale.longtasks) {
        if (t.start < a || t.start > b || t.duration < 60) continue;
        const end = t.start + t.duration;
        const by = new Map<string, number>();
        for (const [n, s, e] of g.__parts ?? []) {
          const o = Math.min(e, end) - Math.max(s, t.start);
          if (o > 0 || (n.startsWith('program ') && s >= t.start && s <= end))
            by.set(n, (by.get(n) ?? 0) + o);
        }
        const list = [...by]
          .sort((x, y) => y[1] - x[1])
          .slice(0, 24)
          .map(([n, v]) => (n.startsWith('program ') ? n : `${n} ${v.toFixed(0)}`))
          .join(', ');
        out.push(`  ${t.duration.toFixed(0)} ms at ${(t.start - a).toFixed(0)}: ${list}`);
      }
      return out.join('\n');
    },
    [from, to] as const,
  );
}

/** The week plan of the box's customers (selected before), profiled as 'plan'; null on failure. */
async function plan(
  page: Page,
  records: Customer[],
): Promise<Awaited<ReturnType<typeof weekPlan>> | null> {
  const planned = await orNaN('week plan', () =>
    profiled(page, 'plan', () => weekPlan(page, records)),
  );
  if (process.env['FIELDMAP_SCALE_DEBUG'] && planned)
    console.error(
      `week plan of "${planned.stops}": shown in ${planned.ms} ms, longest task to idle ` +
        `${Math.round(planned.longest)} ms, longest frame gap ${Math.round(planned.gap)} ms`,
    );
  return planned;
}

/** `measure()`, or NaN (a null in the results) with the failure on stderr: one key, not the run. */
async function orNaN<T>(what: string, measure: () => Promise<T>): Promise<T | null> {
  try {
    return await measure();
  } catch (error) {
    console.error(`${what} failed:`, error);
    return null;
  }
}

async function oneRun(
  service: BenchService,
  records: Customer[],
  mapped: number,
): Promise<Record<string, number>> {
  const floorDir = await mkdtemp(join(tmpdir(), 'fieldmap-scale-floor-'));
  const pull = await pullMs(service);
  const app = await launchApp({
    serviceUrl: service.url,
    credentialStore: new MemoryCredentialStore(),
    // The product's rate against the service's own 3/s: the e2e harness's default sends faster,
    // and every 429 then holds all of main's requests back.
    limiterRate: 3,
    mainInChild: true,
    pageProbe: PAGE_PROBE,
  });
  // Main's RSS once started, before the sign-in: what it holds before any customer.
  const mainIdle = (await procStatus(app.mainPid(), 'VmRSS')) / 2 ** 20;
  if (process.env['FIELDMAP_SCALE_DEBUG'])
    console.error(`main started: ${await memoryText(app.mainPid(), await app.mainMemory())}`);
  try {
    // The baseline's raw put, in a Chromium of its own (withBaselinePage), while the app waits
    // on its sign-in form: nothing else runs, for the floor as for the app.
    const put = !FLOOR ? 0 : await withBaselinePage(floorDir, (page) => rawPut(page, records));
    await installProbe(app.page);
    // FIELDMAP_SCALE_CONSOLE=1: the page's console on stderr.
    if (process.env['FIELDMAP_SCALE_CONSOLE'])
      app.page.on('console', (m) => console.error(`page ${m.type()}: ${m.text()}`));
    const t0 = await app.page.evaluate(() => performance.now());
    const { username, password } = service.account;
    if (process.env['FIELDMAP_SCALE_DEBUG']) await startTimeline(app.page, MAP_DRAWN_MARK);
    const t1 = await profiled(app.page, 'first', async () => {
      await app.call('login', { baseUrl: service.url, username, password });
      // FIELDMAP_SCALE_DEBUG: MapLibre's parts of the first sync's long tasks (the pins' first
      // draw comes seconds after the map is made, once the list is in).
      if (process.env['FIELDMAP_SCALE_DEBUG']) {
        await app.page.waitForFunction(
          () =>
            (document.querySelector('.fm-map') as { fieldmapMap?: unknown } | null)?.fieldmapMap,
          undefined,
          { timeout: WAIT_MS },
        );
        await app.page.evaluate(MAP_PARTS);
      }
      return filledAt(app.page, N, mapped);
    });
    if (process.env['FIELDMAP_SCALE_DEBUG'])
      console.error(
        `first sync's long tasks, whose parts (ms):\n${await mapParts(app.page, t0, t1)}`,
      );
    if (process.env['FIELDMAP_SCALE_DEBUG'])
      console.error(`first sync as shown:\n  ${(await stopTimeline(app.page)).join('\n  ')}`);
    const first = { ms: t1 - t0, longest: await longestTask(app.page, t0, t1) };
    // FIELDMAP_SCALE_DEBUG=1: the first sync's long tasks over 200 ms (ms after sign-in: ms).
    if (process.env['FIELDMAP_SCALE_DEBUG'])
      console.error(
        'first sync long tasks',
        await app.page.evaluate(
          ([a, b]) =>
            (globalThis as unknown as { __scale: Probe }).__scale.longtasks
              .filter((t) => t.start >= a && t.start <= b && t.duration > 200)
              .map((t) => `${Math.round(t.start - a)}: ${Math.round(t.duration)}`)
              .join(', '),
          [t0, t1] as const,
        ),
      );
    if (process.env['FIELDMAP_SCALE_DEBUG'])
      console.error(
        `first sync ${Math.round(first.ms)} ms; pull ${Math.round(pull)} ms, raw put ${Math.round(put)} ms`,
      );
    // The app's own code's longest task per phase (support/felt.ts), the worst of them kept.
    const appTasks: number[] = [];
    const appTask = async (what: string, from: number, to: number) => {
      const t = await longestAppTask(app.page, from, to);
      appTasks.push(t.app);
      if (process.env['FIELDMAP_SCALE_DEBUG'])
        console.error(
          `longest app task, ${what}: ${Math.round(t.app)} ms (a task of ${Math.round(t.task)}` +
            ` ms at ${Math.round(t.at - from)} ms, ${Math.round(t.render)} ms of it MapLibre's` +
            ` render; ${t.renders} renders over 1 ms in the phase)`,
        );
    };
    await appTask('first sync', t0, t1);
    if (ONLY_FIRST)
      return { first: first.ms, firstLongest: first.longest, appLongest: Math.max(...appTasks) };
    if (ONLY_RSS) {
      if (process.env['FIELDMAP_SCALE_DEBUG'])
        console.error(
          `main after the first sync: ${await memoryText(app.mainPid(), await app.mainMemory())}`,
        );
      const rss = await secondSyncRssMb(app, service, mapped);
      return { first: first.ms, rss: rss.peak, rssBefore: rss.before, mainIdle };
    }
    if (ONLY_BULK)
      return {
        first: first.ms,
        ...bulkKeys(await profiled(app.page, 'bulk', () => bulk(app, records))),
      };
    if (ONLY_COLD) {
      const { cold, coldLongest } = await coldStart(app, mapped, appTask);
      const getAll = await withBaselinePage(floorDir, rawGetAll);
      return { first: first.ms, cold, coldLongest, appLongest: Math.max(...appTasks), getAll };
    }
    if (ONLY_PLAN) {
      await selectBox(app.page, records, WAIT_MS);
      const planned = await plan(app.page, records);
      return {
        first: first.ms,
        weekPlanLongest: planned?.longest ?? NaN,
        weekPlanGap: planned?.gap ?? NaN,
      };
    }
    if (ONLY_EXPORT) {
      const exported = await profiled(app.page, 'export', () => exportMs(app));
      return {
        first: first.ms,
        export: exported.ms,
        exportLongest: exported.longest,
        exportUiLongest: exported.uiLongest,
        exportUiGap: exported.uiGap,
      };
    }
    if (ONLY_RECONNECT) {
      await app.setOffline(true);
      await app.restart();
      await installProbe(app.page);
      await filledAt(app.page, N, mapped);
      const targets = editTargets(records, EDITS + 3).slice(EDITS);
      const reconnected = await reconnectMs(app, service, targets, mapped);
      return {
        first: first.ms,
        reconnect: reconnected.ms,
        reconnectEta: reconnected.etaError,
      };
    }
    const filterFrom = await app.page.evaluate(() => performance.now());
    const { times: filterSortEach, mapTimes } = await profiled(app.page, 'filters', () =>
      filterSortTimes(app.page, WAIT_MS),
    );
    const filterTo = await app.page.evaluate(() => performance.now());
    await appTask('filters and sorts', filterFrom, filterTo);
    // FIELDMAP_SCALE_DEBUG=1: each sort and filter's time, in the order filterSortTimes runs them.
    if (process.env['FIELDMAP_SCALE_DEBUG']) {
      console.error('filter/sort ms', filterSortEach.map(Math.round));
      console.error('filter to map ms', mapTimes.map(Math.round));
    }
    const filterSort = p95(filterSortEach);
    const filters = {
      filterSort,
      filterToMap: p95(mapTimes),
      filterLongest: await longestTask(app.page, filterFrom, filterTo),
    };
    if (ONLY_FILTERS) return { first: first.ms, firstLongest: first.longest, ...filters };
    const exported = ONLY_EDITS
      ? { ms: NaN, longest: NaN, uiLongest: NaN, uiGap: NaN }
      : await profiled(app.page, 'export', () => exportMs(app));
    const targets = editTargets(records, EDITS + 3);
    const editFrom = await app.page.evaluate(() => performance.now());
    const edited = await profiled(app.page, 'edits', () =>
      editToPin(app, service, targets.slice(0, EDITS)),
    );
    await appTask('edits', editFrom, await app.page.evaluate(() => performance.now()));
    if (process.env['FIELDMAP_SCALE_DEBUG']) {
      console.error('edit to pin ms', edited.times.map(Math.round));
      console.error(
        `edit revert ${Math.round(edited.revertMs)} ms over ${edited.times.length} edits; ` +
          `edits each view showed the new colour in: ${JSON.stringify(edited.seen)}`,
        edited.flips,
      );
    }
    const edits = median(edited.times);
    if (ONLY_EDITS)
      return {
        first: first.ms,
        edits,
        editRevert: edited.revertMs,
        appLongest: Math.max(...appTasks),
      };
    const bulked = bulkKeys(await profiled(app.page, 'bulk', () => bulk(app, records)));
    // The bulk's box stays selected: the week is planned for those ~355 customers.
    const planned = await plan(app.page, records);

    const { cold, coldLongest } = await coldStart(app, mapped, appTask);
    const getAll = await withBaselinePage(floorDir, rawGetAll);
    const reconnect = await orNaN('reconnect', () =>
      reconnectMs(app, service, targets.slice(EDITS), mapped),
    );
    const rss = await orNaN('second sync', () => secondSyncRssMb(app, service, mapped));
    return {
      first: first.ms,
      firstLongest: first.longest,
      baselineFirst: pull + put,
      ...filters,
      export: exported.ms,
      exportLongest: exported.longest,
      exportUiLongest: exported.uiLongest,
      exportUiGap: exported.uiGap,
      weekPlanLongest: planned?.longest ?? NaN,
      weekPlanGap: planned?.gap ?? NaN,
      edits,
      editRevert: edited.revertMs,
      reconnect: reconnect?.ms ?? NaN,
      reconnectEta: reconnect?.etaError ?? NaN,
      rss: rss?.peak ?? NaN,
      rssBefore: rss?.before ?? NaN,
      mainIdle,
      appLongest: Math.max(...appTasks),
      ...bulked,
      cold,
      coldLongest,
      getAll,
    };
  } finally {
    await app.close();
    await rm(floorDir, { recursive: true, force: true });
  }
}

/**
 * The cold start: a restart offline, navigation start to the list filled and the map drawn (page
 * ms) and its longest task. FIELDMAP_SCALE_PROFILE=cold then profiles a reload of the page (the
 * restarted page loads before the bench can reach it): the cache read and the map's start again.
 */
async function coldStart(
  app: AppHandle,
  mapped: number,
  appTask: (what: string, from: number, to: number) => Promise<void>,
): Promise<{ cold: number; coldLongest: number }> {
  await app.setOffline(true);
  await app.restart();
  await installProbe(app.page);
  const cold = await filledAt(app.page, N, mapped);
  const coldLongest = await longestTask(app.page, 0, cold);
  // The probe ran from the page's first moment (PAGE_PROBE): MapLibre's first frames and its
  // WebGL context's creation are taken out as in the other phases.
  await appTask('cold start', 0, cold);
  if (profiling('cold'))
    await profiled(app.page, 'cold', async () => {
      await app.page.reload();
      await installProbe(app.page);
      await filledAt(app.page, N, mapped);
    });
  return { cold, coldLongest };
}

/**
 * Issue 26's reconnect: with the app offline (after the cold start), three colour edits, a
 * restart still offline, the list and map filled from the cache, then back online: until the
 * status says Synced and the service answers each of the three with its new colour (ms).
 */
async function reconnectMs(
  app: AppHandle,
  service: BenchService,
  targets: Customer[],
  mapped: number,
): Promise<{ ms: number; etaError: number }> {
  const edits: Array<{ id: string; color: string }> = [];
  for (const target of targets) edits.push(await editColour(app.page, target));
  await app.page.fill('input[aria-label="Search customers"]', '');
  await app.restart();
  await installProbe(app.page);
  await filledAt(app.page, N, mapped);
  const t0 = Date.now();
  await app.setOffline(false);
  const bar = { samples: [] as Sample[], synced: 0 };
  await syncedWith(app, service, edits, bar);
  const ms = Date.now() - t0;
  // A reconnect lasts seconds: only its last 2 s are left out (whole seconds, redrawn each second).
  const etaError = worstError(bar.samples, bar.synced, 2_000);
  if (process.env['FIELDMAP_SCALE_DEBUG']) {
    const shown = bar.samples.map((x) => `${x.at - t0}: ${x.leftS}, ${bar.synced - x.at}`);
    console.error(
      `reconnect with ${edits.length} offline edits (online at ${t0}): Synced in ${ms} ms (the bar at ` +
        `${bar.synced - t0} ms); time left (ms after online: said s, really left ms) ` +
        `${shown.join('; ')}; worst ${Math.round(etaError * 100)} %`,
    );
  }
  return { ms, etaError };
}

/** A line of /proc/<pid>/status in bytes (VmRSS: resident now, VmHWM: its peak), 0 when gone. */
async function procStatus(pid: number, key: 'VmRSS' | 'VmHWM'): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kb = new RegExp(`${key}:\\s+(\\d+) kB`).exec(status)?.[1];
  return Number(kb ?? 0) * 1024;
}

/**
 * Main's peak RSS while a second full sync runs: sign out (the account's data dir is removed),
 * sign in again, until the list and map hold every customer and the sync is over. Main is the
 * harness's child process (mainInChild): its VmRSS is sampled every 100 ms from here, and its
 * VmHWM, reset at the sign-out where the kernel allows it (/proc/<pid>/clear_refs), gives the
 * peak between two samples too.
 */
async function secondSyncRssMb(
  app: AppHandle,
  service: BenchService,
  mapped: number,
): Promise<{ peak: number; before: number }> {
  const account = await app.call<{ accountKey: string } | null>('currentAccount');
  if (!account) throw new Error('no account signed in before the second sync');
  await app.call('logout', { accountKey: account.accountKey, dropUnsynced: true });
  await installProbe(app.page);
  const pid = app.mainPid();
  const hwmReset = await writeFile(`/proc/${pid}/clear_refs`, '5').then(
    () => true,
    () => false,
  );
  // The JS heap and external memory too, for the debug output: RSS rarely falls once grown, so a
  // process that held more before the sync shows little of the sync's own cost in its RSS.
  const used = async () => {
    const m = await app.mainMemory();
    return m.heapUsed + m.external;
  };
  const before = await procStatus(pid, 'VmRSS');
  const usedBefore = await used();
  const debug = !!process.env['FIELDMAP_SCALE_DEBUG'];
  // FIELDMAP_SCALE_DEBUG=1: where main's RSS is, before and at the peak sample (main-memory.ts);
  // with FIELDMAP_MAIN_EXPOSE_GC=1 also what is live after a full GC before the sync.
  const breakdown = async (collect = false) => memoryText(pid, await app.mainMemory(collect));
  if (debug) console.error(`main before the second sync: ${await breakdown()}`);
  if (debug && process.env['FIELDMAP_MAIN_EXPOSE_GC'])
    console.error(`main before the second sync, after a full GC: ${await breakdown(true)}`);
  let peak = before;
  let usedPeak = usedBefore;
  let peakParts = '';
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const rss = await procStatus(pid, 'VmRSS');
      if (debug && rss > peak) peakParts = await breakdown().catch(() => '');
      peak = Math.max(peak, rss);
      usedPeak = Math.max(usedPeak, await used().catch(() => 0));
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  const t0 = Date.now();
  let syncing = false;
  try {
    const { username, password } = service.account;
    await app.call('login', { baseUrl: service.url, username, password });
    // The sync under way before the fill is awaited: the page's own cache may fill the list and
    // map before main's pull ends.
    for (let i = 0; i < 100; i++) {
      const sync = await app.page.getAttribute('[data-sync]', 'data-sync').catch(() => null);
      if (sync === 'syncing') {
        syncing = true;
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    const since = await app.page.evaluate(() => performance.now());
    await filledAt(app.page, N, mapped, since);
  } finally {
    sampling = false;
    await sampler;
  }
  peak = Math.max(peak, await procStatus(pid, 'VmRSS'));
  if (hwmReset) peak = Math.max(peak, await procStatus(pid, 'VmHWM'));
  const mb = (b: number) => Math.round(b / 2 ** 20);
  if (debug) console.error(`main at the second sync's highest sample: ${peakParts}`);
  if (debug)
    console.error(
      `second sync${syncing ? '' : ' (never seen syncing)'}: ${Date.now() - t0} ms; main's RSS ` +
        `${mb(before)} MB before, peak ${mb(peak)} MB (VmHWM ${hwmReset ? 'reset' : 'not reset'}` +
        `); JS heap and external ${mb(usedBefore)} MB before, peak ${mb(usedPeak)} MB`,
    );
  return { peak: mb(peak), before: mb(before) };
}

async function bulk(app: AppHandle, records: Customer[]): Promise<BulkResult> {
  const from = await app.page.evaluate(() => performance.now());
  // FIELDMAP_SCALE_DEBUG: the cache worker's writes of customers that named a range, not keys
  // (Dexie's broadcast of changed parts): each makes the page read every customer again.
  if (process.env['FIELDMAP_SCALE_DEBUG'])
    await app.page.evaluate(() => {
      type Node = { from?: unknown; to?: unknown; l?: Node; r?: Node };
      const g = globalThis as unknown as { __ranges: string[] };
      g.__ranges = [];
      const start = performance.now();
      new BroadcastChannel('x-storagemutated-1').onmessage = (e: MessageEvent) => {
        for (const [part, node] of Object.entries((e.data ?? {}) as Record<string, Node>)) {
          if (!part.includes('/customers/')) continue;
          const stack = [node];
          let keys = 0;
          while (stack.length > 0) {
            const n = stack.pop()!;
            if ('from' in n && (n.from !== n.to || typeof n.from !== 'string')) {
              g.__ranges.push(
                `${((performance.now() - start) / 1000).toFixed(1)} s: ${part} ` +
                  `${JSON.stringify(n.from)}..${JSON.stringify(n.to)} (after ${keys} keys)`,
              );
              return;
            }
            if ('from' in n) keys++;
            if (n.l) stack.push(n.l);
            if (n.r) stack.push(n.r);
          }
        }
      };
    });
  const result = await bulkColour(app, records, (a, b) => longestTask(app.page, a, b), WAIT_MS);
  // FIELDMAP_SCALE_DEBUG: how the map took the bulk (a reload redoes every pin: a long task).
  if (process.env['FIELDMAP_SCALE_DEBUG'])
    console.error(
      'bulk on the page (map patches; map reloads, reads of every customer at s; long tasks):',
      await app.page.evaluate(
        ([from, patch, reload, readAll]) => {
          const since = (name: string) =>
            performance.getEntriesByName(name).filter((m) => m.startTime >= from);
          const probe = (
            globalThis as unknown as {
              __scale: { longtasks: Array<{ start: number; duration: number }> };
            }
          ).__scale;
          return [
            since(patch).length,
            since(reload).map((m) => ((m.startTime - from) / 1000).toFixed(1)),
            since(readAll).map((m) => ((m.startTime - from) / 1000).toFixed(1)),
            probe.longtasks
              .filter((t) => t.start >= from && t.duration > 200)
              .map((t) => `${((t.start - from) / 1000).toFixed(1)}: ${Math.round(t.duration)}`),
          ];
        },
        [from, MAP_SOURCE_PATCH_MARK, MAP_SOURCE_RELOAD_MARK, FEED_READ_ALL_MARK] as const,
      ),
    );
  if (process.env['FIELDMAP_SCALE_DEBUG'])
    console.error(
      'ranges written:',
      await app.page.evaluate(() => (globalThis as unknown as { __ranges: string[] }).__ranges),
    );
  return result;
}

function bulkKeys(r: BulkResult): Record<string, number> {
  if (process.env['FIELDMAP_SCALE_DEBUG']) console.error('bulk', r);
  return {
    bulkCount: r.count,
    bulkOps: r.opsPerS,
    bulkLongest: r.longestTask,
    bulkEta: r.etaWorstError,
    bulkBarEta: r.barEtaWorstError,
  };
}

const BULK_KEYS = (med: (key: string) => number) => ({
  bulk_355_count: med('bulkCount'),
  bulk_355_send_ops_per_s: Math.round(med('bulkOps') * 100) / 100,
  longest_task_bulk_355_ms: med('bulkLongest'),
  bulk_355_time_left_worst_error_pct: Math.round(med('bulkEta') * 100),
  bulk_355_status_bar_time_left_worst_error_pct: Math.round(med('bulkBarEta') * 100),
});

/** The reference service as the bench talks to it: over HTTP only, in a process of its own. */
type BenchService = {
  url: string;
  account: { username: string; password: string };
  stop(): Promise<void>;
};

/**
 * The reference service in a child process (its CLI), as a real service is never in main's
 * process: in the runner's own Node process, its JSON.stringify of 100k customers for every
 * pull (1.5-3 s) held the same event loop as main, so an edit saved during the pull after the
 * one before waited for it.
 */
async function startServiceProcess(): Promise<BenchService> {
  const account = { username: 'rep', password: 'scale-bench-password' };
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const child = spawn(
    process.execPath,
    [
      ...['--import', 'tsx', 'src-service/cli.ts', '--port', '0', '--rate', '3', '--seed', '7'],
      ...['--customers', String(N), '--accounts', `${account.username}:${account.password}`],
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const found = /listening on (http:\/\/\S+)/.exec(out);
      if (found) resolve(found[1]!);
    });
    child.once('exit', (code) =>
      reject(new Error(`the service exited (${code}) before it listened`)),
    );
  });
  return {
    url,
    account,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The Basic authorization header of the bench's account. */
function authorizationOf(service: BenchService): string {
  const { username, password } = service.account;
  return `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
}

/** The account's customers as the service answers them (the records the floors write). */
async function customersOf(service: BenchService): Promise<Customer[]> {
  const auth = authorizationOf(service);
  const response = await fetch(`${service.url}/api/v1/customers`, {
    headers: { authorization: auth },
  });
  if (!response.ok) throw new Error(`GET customers: ${response.status}`);
  return (await response.json()) as Customer[];
}

/**
 * Bare MapLibre with N clustered points to idle (the renderer-map bench's bare page), and the
 * longest task of its page meanwhile: the floor of what the app's map alone may cost the UI
 * thread here (its shaders compile and link on the first frames, synchronous waits under
 * software GL).
 */
async function bareMap(): Promise<{ ms: number; longest: number }> {
  const pages = await serveMapPages();
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${pages.url}/bare.html`);
    await page.waitForFunction(() => 'bare' in globalThis);
    await installProbe(page);
    const from = await page.evaluate(() => performance.now());
    const ms = await page.evaluate(
      ([n]) =>
        (
          globalThis as unknown as {
            bare: { run(n: number, s: number, b: string): Promise<number> };
          }
        ).bare.run(n, 42, 'bundled'),
      [N] as const,
    );
    const to = await page.evaluate(() => performance.now());
    return { ms, longest: await longestTask(page, from, to) };
  } finally {
    await browser.close();
    await pages.close();
  }
}

export async function run(): Promise<Record<string, number | string>> {
  const service = await startServiceProcess();
  try {
    const runs: Array<Record<string, number>> = [];
    for (let i = 0; i < RUNS; i++) {
      // The account as the last run left it: its edits and bulk colours picked from stale records
      // would set what the customers already have (a bulk of no change queues nothing).
      const records = await customersOf(service);
      const mapped = records.filter((c) => positionOf(c) !== null).length;
      // The service's window of 3 requests a second starts afresh for each run.
      await new Promise((r) => setTimeout(r, 1_100));
      runs.push(await oneRun(service, records, mapped));
    }
    const bare: Array<{ ms: number; longest: number }> = [];
    for (let i = 0; i < (BARE ? RUNS : 0); i++) bare.push(await bareMap());
    const med = (key: string) => round(median(runs.map((r) => r[key]!)));
    // Each group's keys, in the full run's order; a partial mode reports its own groups.
    const groups: Record<KeyGroup, () => Promise<Record<string, number>> | Record<string, number>> =
      {
        first: () => ({ [`first_sync_${K}_to_map_ms`]: med('first') }),
        firstFloor: () => ({ [`baseline_pull_plus_raw_idb_${K}_ms`]: med('baselineFirst') }),
        cold: () => ({
          [`cold_start_${K}_to_map_ms`]: med('cold'),
          [`baseline_cold_${K}_ms`]: round(
            median(runs.map((r) => r['getAll']!)) + median(bare.map((b) => b.ms)),
          ),
          longest_task_cold_start_ms: med('coldLongest'),
        }),
        bare: () => ({ longest_task_bare_map_ms: round(median(bare.map((b) => b.longest))) }),
        edits: () => ({
          [`edit_to_pin_${K}_ms`]: med('edits'),
          [`edit_revert_${K}_ms`]: med('editRevert'),
        }),
        reconnect: () => ({
          [`reconnect_3_edits_${K}_to_synced_ms`]: med('reconnect'),
          reconnect_3_edits_time_left_worst_error_pct: Math.round(
            median(runs.map((r) => r['reconnectEta']!)) * 100,
          ),
        }),
        rss: async () => ({
          main_rss_peak_second_sync_mb: Math.round(median(runs.map((r) => r['rss']!))),
          // Main's process just before the sign-out: what it held already.
          main_rss_before_second_sync_mb: Math.round(median(runs.map((r) => r['rssBefore']!))),
          main_rss_started_mb: Math.round(median(runs.map((r) => r['mainIdle']!))),
          runner_playwright_client_rss_mb: await playwrightClientRssMb(),
        }),
        app: () => ({ longest_app_task_ms: med('appLongest') }),
        firstLongest: () => ({ longest_task_first_sync_ms: med('firstLongest') }),
        filters: () => ({
          [`filter_sort_${K}_p95_ms`]: med('filterSort'),
          [`filter_to_map_${K}_p95_ms`]: med('filterToMap'),
          longest_task_filter_sort_ms: med('filterLongest'),
        }),
        export: () => ({
          [`export_csv_${K}_ms`]: med('export'),
          longest_task_export_ms: med('exportLongest'),
          longest_task_export_ui_ms: med('exportUiLongest'),
          longest_frame_gap_export_ui_ms: med('exportUiGap'),
        }),
        plan: () => ({
          longest_task_week_plan_ui_ms: med('weekPlanLongest'),
          longest_frame_gap_week_plan_ui_ms: med('weekPlanGap'),
        }),
        bulk: () => BULK_KEYS((k) => median(runs.map((r) => r[k]!))),
      };
    const out: Record<string, number> = {};
    for (const group of MODE_GROUPS) Object.assign(out, await groups[group]());
    return { ...out, scale_customers: N, scale_runs: RUNS };
  } finally {
    await service.stop();
  }
}

// `npx tsx scripts/bench/scale.ts` runs this module alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await run(), null, 2));
}
