// The first minutes with a fresh install (issue 29): with no settings at all, the map asks main
// for the default online style (OpenFreeMap's; here a local imitation standing in for its
// address) and draws its tiles through main's tile cache. No test reaches the internet.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchApp, type AppHandle } from '../support/app';
import { until } from '../support/until';
import { startStyleServer } from '../basemap/style-server';

let server: Awaited<ReturnType<typeof startStyleServer>>;
let app: AppHandle | undefined;

beforeAll(async () => {
  server = await startStyleServer();
});

afterAll(async () => {
  await app?.close();
  await server?.stop();
});

describe('a fresh install, online', () => {
  it('draws the default online style with no settings, its tiles through main', async () => {
    app = await launchApp({ demo: true, defaultOnlineStyle: server.styleUrl });
    await until(
      () => server.requests.some((r) => r.startsWith('/tiles/')),
      'a tile of the default style requested',
    );
    expect(server.requests).toContain('/style.json');
    // Nothing was typed or confirmed: the style is the default, not a setting of the rep's.
    expect(app.localAddressQuestions).toEqual([]);
  });
});
