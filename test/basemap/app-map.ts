// Helpers for basemap tests on the whole app (test/e2e/harness.ts): reach the app's MapLibre map
// through its element, read rendered pixels, block every request that leaves the app's origin,
// and a style + tile server on loopback for the online style.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { RUNNER_ORIGIN } from '../../scripts/browser-runner/renderer-files';
import type { AppHandle } from '../e2e/harness';
import { onlineTiles } from './fixture-tiles';
import type { Rgb } from './support';

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

export const ONLINE_RED = '#d03030';

/** A style.json and /tiles/z/x/y.pbf of one red square (fixture-tiles.ts), on 127.0.0.1. */
export async function startStyleServer(): Promise<{
  styleUrl: string;
  requests: string[];
  stop: () => Promise<void>;
}> {
  const maxZoom = 8;
  const tiles = new Map(
    onlineTiles(maxZoom).map((t) => [`/tiles/${t.z}/${t.x}/${t.y}.pbf`, t.data]),
  );
  const requests: string[] = [];
  let origin = '';
  const server: Server = createServer((req, res) => {
    requests.push(req.url ?? '');
    if (req.url === '/style.json') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          version: 8,
          sources: {
            fixture: {
              type: 'vector',
              tiles: [`${origin}/tiles/{z}/{x}/{y}.pbf`],
              maxzoom: maxZoom,
              attribution: 'Fixture tiles',
            },
          },
          layers: [
            {
              id: 'areas',
              type: 'fill',
              source: 'fixture',
              'source-layer': 'areas',
              paint: { 'fill-color': ONLINE_RED },
            },
          ],
        }),
      );
      return;
    }
    const tile = tiles.get(req.url ?? '');
    res.writeHead(tile ? 200 : 404, { 'content-type': 'application/x-protobuf' });
    res.end(tile ? Buffer.from(tile) : undefined);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    styleUrl: `${origin}/style.json`,
    requests,
    stop: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}
