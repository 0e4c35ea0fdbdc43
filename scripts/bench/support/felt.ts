// What the rep's page feels, for the scale bench (scale.ts): the page's frames (a
// requestAnimationFrame loop), when the page is idle again after an action, the long tasks of the
// app's own code (MapLibre's frame render taken out), and whether a saved colour ever shows its
// old value again (issue 26: "a saved edit flips back").
import type { Page } from 'playwright-core';

type Frames = { last: number; maxGap: number; on: boolean };
type Probe = {
  longtasks: Array<{ start: number; duration: number }>;
  renders: Array<[number, number]>;
  frames?: Frames;
};

/**
 * The probe as a script the page runs before the app's own (the harness's pageProbe), so a
 * restarted page's first frames are measured too: a cold start's longest task is MapLibre's
 * first frame, linking its programs while software GL waits on the GPU process, before the bench
 * could reach the page. Long tasks since navigation start; each frame render of the map, from
 * the moment its element gets the map; each WebGL context's creation, a GPU-process round trip
 * of MapLibre's constructor; and the context's calls that wait for the GPU process's answer
 * (its queries, readPixels, finish): the first of them also waits for the context itself, which
 * Chromium makes lazily. Plain text: tsx would rewrite a function's source. Evaluated
 * again on a page that did not load it first (installProbe), it observes the long tasks since
 * navigation (buffered) and the maps created after it.
 */
export const PAGE_PROBE = `(() => {
  if (globalThis.__scale) return;
  const probe = { longtasks: [], renders: [] };
  globalThis.__scale = probe;
  globalThis.__name ??= (f) => f;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries())
      probe.longtasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask', buffered: true });
  const span = (fn) => function (...args) {
    const a = performance.now();
    try {
      return fn.apply(this, args);
    } finally {
      const b = performance.now();
      if (b - a > 1) probe.renders.push([a, b]);
    }
  };
  const getContext = HTMLCanvasElement.prototype.getContext;
  const gl = span(getContext);
  const waits = /^(get|is)|^(readPixels|finish|clientWaitSync)$/;
  HTMLCanvasElement.prototype.getContext = function (type, ...rest) {
    if (!String(type).startsWith('webgl')) return getContext.call(this, type, ...rest);
    const context = gl.call(this, type, ...rest);
    if (context && !context.__scaleWrapped) {
      context.__scaleWrapped = true;
      for (let o = Object.getPrototypeOf(context); o && o !== Object.prototype; o = Object.getPrototypeOf(o))
        for (const name of Object.getOwnPropertyNames(o))
          if (waits.test(name) && !Object.hasOwn(context, name) && typeof context[name] === 'function')
            context[name] = span(context[name]);
    }
    return context;
  };
  Object.defineProperty(HTMLElement.prototype, 'fieldmapMap', {
    configurable: true,
    set(controller) {
      Object.defineProperty(this, 'fieldmapMap', { value: controller, writable: true, configurable: true });
      const map = controller && controller.map;
      if (!map || map.__scaleWrapped) return;
      map._render = span(map._render.bind(map));
      map.__scaleWrapped = true;
    },
  });
})();`;

/**
 * The longest long task in [from, to] less the time MapLibre's frame render and the GL waits ran
 * inside it (the app's own code, GPU waits and MapLibre's drawing excluded), with that task for the debug output.
 */
export function longestAppTask(
  page: Page,
  from: number,
  to: number,
): Promise<{ app: number; task: number; render: number; at: number; renders: number }> {
  return page.evaluate(
    ([a, b]) => {
      const probe = (globalThis as unknown as { __scale: Probe }).__scale;
      const renders = (probe.renders ?? []).filter(([s]) => s >= a && s <= b).length;
      let best = { app: 0, task: 0, render: 0, at: 0, renders };
      for (const t of probe.longtasks) {
        if (t.start < a || t.start > b) continue;
        const end = t.start + t.duration;
        // The spans nest (a GL wait inside a frame render): their union inside the task.
        const inside = (probe.renders ?? [])
          .map(([s, e]) => [Math.max(s, t.start), Math.min(e, end)] as const)
          .filter(([s, e]) => e > s)
          .sort((x, y) => x[0] - y[0]);
        let render = 0;
        let reach = t.start;
        for (const [s, e] of inside) {
          render += Math.max(0, e - Math.max(s, reach));
          reach = Math.max(reach, e);
        }
        const app = t.duration - render;
        if (app > best.app) best = { app, task: t.duration, render, at: t.start, renders };
      }
      return best;
    },
    [from, to] as const,
  );
}

/** Starts recording the longest gap between two animation frames of the page. */
export async function startFrames(page: Page): Promise<void> {
  await page.evaluate(() => {
    const probe = (globalThis as unknown as { __scale: Probe }).__scale;
    const frames: Frames = { last: performance.now(), maxGap: 0, on: true };
    probe.frames = frames;
    const tick = (now: number) => {
      if (!frames.on) return;
      frames.maxGap = Math.max(frames.maxGap, now - frames.last);
      frames.last = now;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
}

/** Stops the frame loop; the longest gap between frames since startFrames (ms). */
export function stopFrames(page: Page): Promise<number> {
  return page.evaluate(() => {
    const frames = (globalThis as unknown as { __scale: Probe }).__scale.frames;
    if (!frames) return 0;
    frames.on = false;
    return frames.maxGap;
  });
}

/**
 * Page time when the page went idle: `quietMs` passed with no long task and no gap between
 * frames over 100 ms. A page's own work after an action's visible end (a re-render, a worker's
 * result handled, the garbage of 100k clones collected) ran after the old windows closed; this
 * waits for it. Gives up after `capMs` and answers then.
 */
export function idleAt(page: Page, quietMs = 1_000, capMs = 30_000): Promise<number> {
  return page.evaluate(
    ([quietMs, capMs]) =>
      new Promise<number>((resolve) => {
        const probe = (globalThis as unknown as { __scale: Probe }).__scale;
        const started = performance.now();
        let busy = started;
        let last = started;
        const tick = (now: number) => {
          if (now - last > 100) busy = now;
          last = now;
          for (const t of probe.longtasks) busy = Math.max(busy, t.start + t.duration);
          if (now - busy >= quietMs || now - started > capMs) return resolve(busy);
          requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      }),
    [quietMs, capMs] as const,
  );
}

export type RevertSample = {
  /** Time any view that already showed the new colour showed the old one again (ms). */
  revertMs: number;
  /** The views seen flipping back, and when (ms after Save), for the debug output. */
  flips: string[];
  /** The views that showed the new colour at all (a check that the sampler reads them). */
  seen: string[];
};

/**
 * Samples every animation frame from now on: the detail panel's colour field, the list row's
 * colour dot, and the pin's colour in the map's source of changed pins. A view counts from the
 * first frame it shows `color`; any later frame where it shows `old` adds that frame's time.
 * Installs window.__revertStart(id, color, old); the caller runs it in the same page function
 * that clicks Save, so the first sampled frame is the one after the click.
 */
export async function installRevertSampler(page: Page, recentSource: string): Promise<void> {
  await page.evaluate((source) => {
    type Feature = { properties: Record<string, unknown> };
    type State = {
      on: boolean;
      revertMs: number;
      flips: string[];
      seen: Set<string>;
    };
    const g = globalThis as unknown as {
      __revertStart?: (id: string, color: string, old: string) => void;
      __revert?: State;
    };
    g.__revertStart = (id, color, old) => {
      const seen = new Set<string>();
      const state: State = { on: true, revertMs: 0, flips: [], seen };
      g.__revert = state;
      const t0 = performance.now();
      const flipping = new Set<string>();
      const views = (): Array<[string, unknown]> => {
        const out: Array<[string, unknown]> = [];
        const field = document.querySelector(
          'aside[aria-label="Customer details"] dd[data-field="color"]',
        );
        if (field) out.push(['detail panel', field.textContent?.trim()]);
        const dot = document.querySelector(
          `[aria-label="Customers"] button.customer-row[data-id="${id}"] .dot`,
        );
        if (dot) out.push(['list dot', dot.getAttribute('title')]);
        const el = document.querySelector('.fm-map') as
          | (Element & {
              fieldmapMap?: { map: { querySourceFeatures(s: string): Feature[] } };
            })
          | null;
        const map = el?.fieldmapMap?.map;
        if (map) {
          for (const f of map.querySourceFeatures(source))
            if (f.properties['id'] === id) out.push(['pin', f.properties['color']]);
        }
        return out;
      };
      let last = t0;
      const tick = (now: number) => {
        if (!state.on) return;
        let showsOld = false;
        for (const [view, value] of views()) {
          if (value === color) {
            seen.add(view);
            flipping.delete(view);
          } else if (value === old && seen.has(view)) {
            showsOld = true;
            if (!flipping.has(view)) state.flips.push(`${view} at ${Math.round(now - t0)}`);
            flipping.add(view);
          }
        }
        if (showsOld) state.revertMs += now - last;
        last = now;
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    };
  }, recentSource);
}

/** Stops the sampler started by window.__revertStart; what it saw. */
export function stopRevertSampler(page: Page): Promise<RevertSample> {
  return page.evaluate(() => {
    type State = { on: boolean; revertMs: number; flips: string[]; seen: Set<string> };
    const state = (globalThis as unknown as { __revert?: State }).__revert;
    if (!state) return { revertMs: 0, flips: [], seen: [] };
    state.on = false;
    return { revertMs: state.revertMs, flips: state.flips, seen: [...state.seen] };
  });
}

/**
 * FIELDMAP_SCALE_DEBUG: starts noting, every 50 ms, what the page shows of a sync (the status
 * bar's words, the list's row count, the map's drawn marks), for `timelineSince` to print.
 */
export async function startTimeline(page: Page, mark: string): Promise<void> {
  await page.evaluate((mark) => {
    const g = globalThis as unknown as { __timeline?: string[]; __timelineStop?: () => void };
    const notes: string[] = [];
    g.__timeline = notes;
    let said = '';
    const started = performance.now();
    const timer = setInterval(() => {
      const status = document.querySelector('.sync-status .text')?.textContent?.trim() ?? '';
      const rows = document.querySelector('[aria-label="Customers"]')?.getAttribute('data-rows');
      const drawn = (performance.getEntriesByName(mark) as PerformanceMark[])
        .filter((m) => m.startTime >= started)
        .map((m) => String(m.detail?.customers))
        .join(',');
      const now = `${status} | rows ${rows ?? '-'} | drawn [${drawn}]`;
      if (now !== said) notes.push(`${Math.round(performance.now() - started)} ms: ${now}`);
      said = now;
    }, 50);
    g.__timelineStop = () => clearInterval(timer);
  }, mark);
}

/** Stops the timeline startTimeline began and gives its notes. */
export function stopTimeline(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const g = globalThis as unknown as { __timeline?: string[]; __timelineStop?: () => void };
    g.__timelineStop?.();
    return g.__timeline ?? [];
  });
}
