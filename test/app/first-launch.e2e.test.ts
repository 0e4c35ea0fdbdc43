// The very first launch (and the first after a sign-out): the page remembers no account, so
// until main says whether one is signed in it shows only that it is opening. It used to make the
// whole shell with its map (a WebGL context and the map's first frames: a 0.4-1.2 s task in a
// rep trial at 100k) for ~0.7 s, then threw it away for the sign-in form. A page probe, run
// before the app's script, records whether a map ever existed and what the page showed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryCredentialStore } from '../../scripts/browser-runner/credentials';
import { launchApp, startTestService, type AppHandle, type TestService } from '../support/app';
import { signIn, waitRows } from '../support/app-steps';

const PROBE = `(() => {
  const seen = { map: false, shell: false, opening: false };
  globalThis.__firstLaunch = seen;
  new MutationObserver(() => {
    if (document.querySelector('.fm-map, canvas.maplibregl-canvas')) seen.map = true;
    if (document.querySelector('.top-bar')) seen.shell = true;
    if (document.querySelector('p.opening[role="status"]')) seen.opening = true;
  }).observe(document, { subtree: true, childList: true });
})();`;

type Seen = { map: boolean; shell: boolean; opening: boolean };

let service: TestService;
let app: AppHandle;

beforeAll(async () => {
  service = await startTestService({ customers: 30, seed: 35 });
  app = await launchApp({
    serviceUrl: service.url,
    credentialStore: new MemoryCredentialStore(),
    pageProbe: PROBE,
  });
});

afterAll(async () => {
  await app?.close();
  await service?.stop();
});

const seen = (): Promise<Seen> =>
  app.page.evaluate(() => (globalThis as unknown as { __firstLaunch: Seen }).__firstLaunch);

describe('the first launch', () => {
  it('goes to the sign-in form without making the map first', async () => {
    await app.page.waitForSelector('#si-url');
    expect(await seen()).toEqual({ map: false, shell: false, opening: true });
    // Signed in, the shell and its map come as ever.
    await signIn(app, service);
    await waitRows(app.page, 'Customers', 30);
    await app.page.waitForSelector('.fm-map');
    // A restart remembers the account: the shell (and its map) shows at once, before main's word.
    await app.restart();
    await app.page.waitForSelector('.top-bar');
    expect(await seen()).toMatchObject({ shell: true, opening: false });
  });
});
