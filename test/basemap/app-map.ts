// Helpers for basemap tests on the whole app (test/support/app.ts): reach the app's MapLibre map
// through its element, read rendered pixels, block every request that leaves the app's origin.
// The style + tile server on loopback for the online style is style-server.ts.
import type { Page } from 'playwright-core';
import { RUNNER_ORIGIN } from '../../scripts/browser-runner/renderer-files';
import { launchApp, startTestService, type AppHandle, type TestService } from '../support/app';
import { signIn } from '../support/app-steps';
import { startRangeServer, type RangeServer } from './range-server';
import { townArchive } from './streets-fixture';
import type { Rgb } from './support';

export const OFFLINE_MAPS_PANEL = 'dialog[aria-labelledby]:has(h2:text("Offline maps"))';

export async function openOfflineMaps(page: Page): Promise<void> {
  await page.click('button:has-text("Offline maps")');
  await page.waitForSelector(OFFLINE_MAPS_PANEL);
}

export interface DownloadApp {
  app: AppHandle;
  service: TestService;
  /** The town archive (streets-fixture.ts) on a loopback range server: the map source. */
  source: RangeServer;
  /** Requests that tried to leave the app's origin (all refused). */
  blocked: string[];
  close(): Promise<void>;
}

/**
 * The whole app signed in to a small account, every outside request blocked, and a map source.
 * `env`: the system variables main reads (an administrator's defaults), as IT would set them.
 */
export async function startDownloadApp(env: Record<string, string> = {}): Promise<DownloadApp> {
  const source = await startRangeServer(townArchive());
  const service = await startTestService({ customers: 5, seed: 14 });
  const app = await launchApp({ serviceUrl: service.url, env });
  const blocked: string[] = [];
  await blockOutside(app, blocked);
  await signIn(app, service);
  await app.page.waitForSelector('html[data-ready]', { state: 'attached' });
  await app.page.waitForSelector('.top-bar');
  return {
    app,
    service,
    source,
    blocked,
    close: async () => {
      await app.close();
      await service.stop();
      await source.close();
    },
  };
}

/** Aborts (and records) every browser request that is not for the app's own origin. */
export async function blockOutside(app: AppHandle, blocked: string[]): Promise<void> {
  // Registered after the runner's route, so it runs first; the app's own requests fall back to it.
  await app.context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(`${RUNNER_ORIGIN}/`)) return route.fallback();
    blocked.push(url);
    return route.abort('internetdisconnected');
  });
}

/** Moves the app's map and waits until it has drawn everything there. */
export async function showMap(page: Page, center: [number, number], zoom: number): Promise<void> {
  await page.evaluate(
    ([c, z]) =>
      new Promise<void>((resolve) => {
        type M = {
          jumpTo(o: object): void;
          once(e: string, f: () => void): void;
          triggerRepaint(): void;
        };
        const el = document.querySelector('.fm-map') as
          (Element & { fieldmapMap?: { map: M } }) | null;
        const map = el!.fieldmapMap!.map;
        map.jumpTo({ center: c, zoom: z });
        map.once('idle', () => resolve());
        map.triggerRepaint();
      }),
    [center, zoom] as const,
  );
}

/** Where a [lng, lat] is on the page (for page.mouse), at the map's current view. */
export async function pagePoint(
  page: Page,
  lng: number,
  lat: number,
): Promise<{ x: number; y: number }> {
  return page.evaluate(
    ([x, y]) => {
      type M = {
        project(p: [number, number]): { x: number; y: number };
        getCanvas(): HTMLCanvasElement;
      };
      const el = document.querySelector('.fm-map') as
        (Element & { fieldmapMap?: { map: M } }) | null;
      const map = el!.fieldmapMap!.map;
      const p = map.project([x, y]);
      const rect = map.getCanvas().getBoundingClientRect();
      return { x: rect.left + p.x, y: rect.top + p.y };
    },
    [lng, lat] as const,
  );
}

/** Rendered colours in a square of `radius` px around a point, read inside a render event. */
export async function colorsAround(
  page: Page,
  lng: number,
  lat: number,
  radius = 0,
): Promise<Rgb[]> {
  return page.evaluate(
    ([x, y, r]) =>
      new Promise<Rgb[]>((resolve, reject) => {
        type M = {
          project(p: [number, number]): { x: number; y: number };
          getCanvas(): HTMLCanvasElement;
          once(e: string, f: () => void): void;
          triggerRepaint(): void;
        };
        const el = document.querySelector('.fm-map') as
          (Element & { fieldmapMap?: { map: M } }) | null;
        const map = el!.fieldmapMap!.map;
        map.once('render', () => {
          const canvas = map.getCanvas();
          const ratio = canvas.width / canvas.clientWidth;
          const p = map.project([x, y]);
          const ctx = document.createElement('canvas').getContext('2d')!;
          ctx.canvas.width = canvas.width;
          ctx.canvas.height = canvas.height;
          ctx.drawImage(canvas, 0, 0);
          const x0 = Math.round(p.x * ratio) - r;
          const y0 = Math.round(p.y * ratio) - r;
          const size = 2 * r + 1;
          if (x0 < 0 || y0 < 0 || x0 + size > canvas.width || y0 + size > canvas.height) {
            reject(new Error('point outside the view'));
            return;
          }
          const data = ctx.getImageData(x0, y0, size, size).data;
          const out: Rgb[] = [];
          for (let i = 0; i < data.length; i += 4) out.push([data[i]!, data[i + 1]!, data[i + 2]!]);
          resolve(out);
        });
        map.triggerRepaint();
      }),
    [lng, lat, radius] as const,
  );
}

/** Ids of the map's style layers that start with `prefix`. */
export function layerIds(page: Page, prefix: string): Promise<string[]> {
  return page.evaluate((p) => {
    const el = document.querySelector('.fm-map') as
      | (Element & { fieldmapMap?: { map: { getStyle(): { layers: Array<{ id: string }> } } } })
      | null;
    return (el?.fieldmapMap?.map.getStyle().layers ?? [])
      .map((l) => l.id)
      .filter((id) => id.startsWith(p));
  }, prefix);
}

export { ONLINE_RED, startStyleServer } from './style-server';
