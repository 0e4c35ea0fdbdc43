// "Download my area" through the runner: the areas are proposed in a module worker, so opening
// Offline maps never holds the page thread while an account's customers are clustered (at 100k
// that held it for seconds). The test holds the worker's answer (a wrapper around the page's
// Worker, installed before the panel opens: the one seam, in the test only) and checks, while it
// is held, that the panel says it is finding the areas, shows none yet, and that a page-side
// heartbeat keeps ticking; released, the areas shown are exactly those proposeAreas makes of the
// same customers. At 20,000 customers, the e2e suites' account: what is checked does not depend
// on the count (the old code fails it because no areas worker ever starts), and seeding and
// syncing 100k here cost the suite ~100 s of the machine's two cores. Nothing here depends on
// the machine's speed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchApp, startTestService, type AppHandle, type TestService } from '../support/app';
import { signIn, waitRowsInHook } from '../support/app-steps';
import { until } from '../support/until';
import { OFFLINE_MAPS_PANEL, openOfflineMaps } from './app-map';
import { proposeAreas } from '../../src-renderer/src/features/offline-maps/proposed-areas';

const COUNT = 20_000;
const AREAS = '[aria-label="Areas to download"] li:has-text("customers")';

let service: TestService;
let app: AppHandle;

interface Probe {
  /** Areas workers started, messages from them held back, and whether they flow now. */
  started: number;
  held: number;
  open: boolean;
  release: () => void;
  beats: number;
  since: number;
  longtasks: Array<{ start: number; duration: number }>;
}

/**
 * Installs, in the running page: a long-task observer, a MessageChannel heartbeat (it ticks only
 * while the page thread is free), and a Worker wrapper that holds every message an areas worker
 * sends until the test releases them (a listener added before the app's own `onmessage`, stopping
 * the event, then the same data dispatched again on release).
 */
async function installProbe(page: Page): Promise<void> {
  await page.evaluate(() => {
    const probe = {
      started: 0,
      held: 0,
      open: false,
      release: () => {},
      beats: 0,
      since: performance.now(),
      longtasks: [] as Array<{ start: number; duration: number }>,
    };
    (globalThis as unknown as { __areas: typeof probe }).__areas = probe;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries())
        probe.longtasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: true });
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      probe.beats++;
      setTimeout(() => channel.port2.postMessage(0), 0);
    };
    channel.port2.postMessage(0);
    const held: Array<{ worker: Worker; data: unknown }> = [];
    probe.release = () => {
      probe.open = true;
      for (const { worker, data } of held.splice(0))
        worker.dispatchEvent(new MessageEvent('message', { data }));
    };
    const Real = globalThis.Worker;
    globalThis.Worker = class extends Real {
      constructor(url: string | URL, options?: WorkerOptions) {
        super(url, options);
        if (!/areas/.test(String(url))) return;
        probe.started++;
        this.addEventListener('message', (event) => {
          if (probe.open) return;
          event.stopImmediatePropagation();
          probe.held++;
          held.push({ worker: this, data: event.data });
        });
      }
    };
  });
}

const probe = (page: Page) =>
  page.evaluate(() => {
    const { started, held, beats, since, longtasks } = (globalThis as unknown as { __areas: Probe })
      .__areas;
    const after = longtasks.filter((t) => t.start >= since).map((t) => t.duration);
    return { started, held, beats, longest: Math.max(0, ...after) };
  });

beforeAll(async () => {
  service = await startTestService({ customers: COUNT, seed: 31 });
  app = await launchApp({ serviceUrl: service.url });
  await signIn(app, service);
  await waitRowsInHook(app.page, 'Customers', COUNT);
});

afterAll(async () => {
  await app?.close();
  await service?.stop();
});

describe('Download my area at 20,000 customers', () => {
  it('finds the areas in a worker while the page stays free, then shows them all', async () => {
    const { page } = app;
    await installProbe(page);
    await openOfflineMaps(page);
    const panel = page.locator(OFFLINE_MAPS_PANEL);
    // Either the worker's answer is held (the panel waits on it) or, on a page that clusters by
    // itself, the areas are already there: wait for one of the two, then tell which.
    await until(
      async () => (await probe(page)).held > 0 || (await page.locator(AREAS).count()) > 0,
      'the areas proposed, or the worker holding them',
    );
    const opened = await probe(page);
    console.info(`longest page task opening Offline maps at ${COUNT}: ${opened.longest} ms`);
    expect(opened.started).toBe(1);
    expect(await page.locator(AREAS).count()).toBe(0);
    await expect.poll(() => panel.getByText('Finding your areas…').count()).toBe(1);
    // The page thread is free meanwhile: the heartbeat goes on while the answer is held.
    const beats = (await probe(page)).beats;
    await until(async () => (await probe(page)).beats > beats + 20, 'the page heartbeat ticking');

    await page.evaluate(() => (globalThis as unknown as { __areas: Probe }).__areas.release());
    await until(async () => (await page.locator(AREAS).count()) > 0, 'the areas shown');
    expect(await panel.getByText('Finding your areas…').count()).toBe(0);
    // The same areas, names and counts as the page itself would have proposed.
    const placed = service.store
      .customers('rep')
      .filter((c) => c.latitude !== null && c.longitude !== null)
      .map((c) => ({ at: [c.longitude!, c.latitude!] as [number, number], city: c.city ?? '' }));
    const want = proposeAreas(placed, []).map((a) => ({ name: a.name, count: a.count }));
    const shown = await page.locator(AREAS).evaluateAll((lis) =>
      lis.map((li) => ({
        name: li.querySelector('.name')?.textContent?.trim() ?? '',
        count: Number(/([\d,]+) customers?/.exec(li.textContent ?? '')?.[1]?.replace(/,/g, '')),
      })),
    );
    // Areas of equal size may come in either order: the page's customers are in the list's order.
    const bySize = (a: { name: string; count: number }, b: { name: string; count: number }) =>
      b.count - a.count || a.name.localeCompare(b.name);
    expect(shown.sort(bySize)).toEqual(want.sort(bySize));
    console.info(`longest page task until the areas are shown: ${(await probe(page)).longest} ms`);
  });
});
