// `npx tsx scripts/basemap/screenshots.ts`: docs/offline-{world,country,city}.png of the real app
// (browser runner: real main services, built renderer, demo account) at three zoom levels, with
// every request that is not the app's own origin or the loopback demo service refused.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { MemoryCredentialStore } from '../browser-runner/credentials';
import { launchApp } from '../browser-runner/launch';
import { RUNNER_ORIGIN } from '../browser-runner/renderer-files';
import { waitUntilDrawn } from '../browser-runner/screenshot';

const DOCS = resolve(import.meta.dirname, '../../docs');

const VIEWS = [
  { file: 'offline-world.png', center: [-40, 30], zoom: 1.6 },
  { file: 'offline-country.png', center: [-96, 38.5], zoom: 3.8 },
  { file: 'offline-city.png', center: [-122.35, 47.6], zoom: 9.5 },
] as const;

async function jumpTo(page: Page, center: readonly number[], zoom: number): Promise<void> {
  await page.evaluate(
    ([c, z]) =>
      new Promise<void>((done) => {
        // The map element carries its controller (MapView's e2e hook).
        type MapLike = {
          jumpTo(o: object): void;
          once(e: string, cb: () => void): void;
        };
        const el = (
          globalThis as unknown as { document: { querySelector(s: string): unknown } }
        ).document.querySelector('.fm-map') as { fieldmapMap?: { map: MapLike } } | null;
        const map = el?.fieldmapMap?.map;
        if (!map) throw new Error('no map element');
        map.once('idle', () => done());
        map.jumpTo({ center: c, zoom: z });
      }),
    [center, zoom] as const,
  );
}

const dataDir = await mkdtemp(join(tmpdir(), 'fieldmap-shots-'));
const outside: string[] = [];
try {
  const app = await launchApp({
    dataDir,
    headless: true,
    credentialStore: new MemoryCredentialStore(),
    demo: true,
    demoRate: 0,
    log: () => undefined,
  });
  try {
    app.context.on('request', (r) => {
      if (!r.url().startsWith(RUNNER_ORIGIN)) outside.push(r.url());
    });
    await waitUntilDrawn(app.page);
    for (const view of VIEWS) {
      await jumpTo(app.page, view.center, view.zoom);
      await app.page.screenshot({ path: join(DOCS, view.file) });
      console.log(`wrote docs/${view.file}`);
    }
  } finally {
    await app.close();
  }
} finally {
  await rm(dataDir, { recursive: true, force: true });
}
if (outside.length > 0) throw new Error(`requests outside the app origin: ${outside.join(', ')}`);
