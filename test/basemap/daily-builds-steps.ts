// The steps of the first-minutes tests of "Download my area" with no settings (issue 29,
// test/app/first-minutes.e2e.test.ts): a fresh app whose main knows only the imitation's daily
// builds (protomaps-builds-server.ts), and the size of the town in view checked in Offline maps.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { MemoryCredentialStore } from '../../scripts/browser-runner/credentials';
import { launchApp, startTestService, type AppHandle } from '../support/app';
import { signIn } from '../support/app-steps';
import { blockOutside, showMap } from './app-map';
import type { BuildsServer } from './protomaps-builds-server';
import { AREA_BOUNDS, MAIN_STREET_LAT } from './streets-fixture';

export { OFFLINE_MAPS_PANEL, openOfflineMaps, showMap } from './app-map';
export { ONLINE_SQUARE_CENTER } from './fixture-tiles';
export { NEWEST_KEY, startBuildsServer, type BuildsServer } from './protomaps-builds-server';

/** The town of the imitation's builds, where the view is taken. */
export const TOWN: [number, number] = [(AREA_BOUNDS[0] + AREA_BOUNDS[2]) / 2, MAIN_STREET_LAT];
export const VIEW_ROW = '[aria-label="Areas to download"] li:has-text("Current view")';

/** A signed-in app on a fresh data dir, every request outside the app's origin blocked. */
export async function freshApp(
  builds: BuildsServer,
  env: Record<string, string> = {},
): Promise<{ rep: AppHandle; blocked: string[]; close(): Promise<void> }> {
  const service = await startTestService({ customers: 5, seed: 14 });
  const rep = await launchApp({ serviceUrl: service.url, env, dailyBuilds: builds.builds });
  const blocked: string[] = [];
  await blockOutside(rep, blocked);
  await signIn(rep, service);
  await rep.page.waitForSelector('html[data-ready]', { state: 'attached' });
  return {
    rep,
    blocked,
    close: async () => {
      await rep.close();
      await service.stop();
    },
  };
}

/** Takes the current view at the town in Offline maps and checks its size: what the row says. */
export async function checkViewSize(page: Page): Promise<string> {
  await showMap(page, TOWN, 14);
  await page.click('button:has-text("Use current view")');
  await page.click(`${VIEW_ROW} button:has-text("Check size")`);
  const shown = await page.waitForSelector(`${VIEW_ROW} .estimate, ${VIEW_ROW} .problem-text`);
  return ((await shown.textContent()) ?? '').replace(/\s+/g, ' ');
}

/**
 * A rep's app opened again with the network cut: signed in once online (no online style, no
 * region), then started offline with `defaultOnlineStyle` as the default style, never fetched.
 */
export async function reopenedOffline(
  defaultOnlineStyle: string,
): Promise<{ rep: AppHandle; close(): Promise<void> }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'fieldmap-no-streets-'));
  const credentialStore = new MemoryCredentialStore();
  const service = await startTestService({ customers: 5, seed: 29 });
  const first = await launchApp({ serviceUrl: service.url, dataDir, credentialStore });
  await signIn(first, service);
  await first.close();
  const rep = await launchApp({ dataDir, credentialStore, offline: true, defaultOnlineStyle });
  return {
    rep,
    close: async () => {
      await rep.close();
      await service.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
