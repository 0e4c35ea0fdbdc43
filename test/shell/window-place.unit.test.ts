// The window opens where the rep left it: through the shell on the fake electron module (no
// Electron binary runs here; fake-electron.ts places windows and lists displays as Electron
// documents), with the real file in a temp data folder.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WINDOW_PLACE_FILE } from '../../src-main/shell/window-place';
import { until } from '../support/until';
import { startWithFake, type Started } from './shell-harness';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fieldmap-window-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const start = (prepare?: (started: Started['fake']) => void) =>
  startWithFake(dir, { dataDir: dir, ...(prepare ? { prepare } : {}) });
const saved = async () => JSON.parse(await readFile(join(dir, WINDOW_PLACE_FILE), 'utf8'));
const SECOND_DISPLAY = { workArea: { x: 1920, y: 0, width: 2560, height: 1400 } };

describe('the window opens where the rep left it', () => {
  it('first at its default size, centred; then where it was dragged and sized', async () => {
    const first = await start();
    const window = first.fake.windows[0]!;
    expect(window.options).toMatchObject({ width: 1280, height: 820 });
    expect(window.options.x).toBeUndefined();
    window.drag({ x: 100, y: 60, width: 1000, height: 700 });
    window.drag({ x: 140, y: 80, width: 1100, height: 720 });
    // One write when the drag stops, not one per move.
    first.clock.advance(500);
    await until(async () => (await saved().catch(() => null))?.x === 140, 'the place written');
    expect(await saved()).toEqual({ x: 140, y: 80, width: 1100, height: 720, maximized: false });

    const again = await start();
    expect(again.fake.windows[0]!.options).toMatchObject({
      x: 140,
      y: 80,
      width: 1100,
      height: 720,
    });
  });

  it('comes back maximised, keeping the size it had before', async () => {
    const first = await start();
    const window = first.fake.windows[0]!;
    window.drag({ x: 200, y: 100, width: 900, height: 600 });
    window.maximize();
    window.close();
    await until(async () => (await saved().catch(() => null))?.maximized === true, 'written');
    const again = await start();
    expect(again.fake.windows[0]!.options).toMatchObject({ x: 200, y: 100, width: 900 });
    expect(again.fake.windows[0]!.maximized).toBe(true);
  });

  it('on a second display, and centred on the primary once that display is gone', async () => {
    const docked = await start((fake) => fake.screen.displays.push(SECOND_DISPLAY));
    docked.fake.windows[0]!.drag({ x: 2200, y: 100, width: 1600, height: 1000 });
    docked.fake.windows[0]!.close();
    await until(async () => (await saved().catch(() => null))?.x === 2200, 'written');

    const stillDocked = await start((fake) => fake.screen.displays.push(SECOND_DISPLAY));
    expect(stillDocked.fake.windows[0]!.options).toMatchObject({ x: 2200, width: 1600 });

    // Off the docking station: no display shows the title bar, so the default place.
    const undocked = await start();
    const window = undocked.fake.windows[0]!;
    expect(window.options).toMatchObject({ width: 1280, height: 820 });
    expect(window.options.x).toBeUndefined();
    expect(window.bounds.x).toBeGreaterThanOrEqual(0);
    expect(window.bounds.x + window.bounds.width).toBeLessThanOrEqual(1920);
  });

  it('fits a place bigger than the display it is on now', async () => {
    await writeFile(
      join(dir, WINDOW_PLACE_FILE),
      JSON.stringify({ x: 0, y: 0, width: 2500, height: 1400, maximized: false }),
    );
    const started = await start();
    expect(started.fake.windows[0]!.options).toMatchObject({
      x: 0,
      y: 0,
      width: 1920,
      height: 1040,
    });
  });

  it.each([
    ['not JSON', '{"x": 1,'],
    [
      'the wrong shape',
      JSON.stringify({ x: '10', y: 0, width: 800, height: 600, maximized: false }),
    ],
    [
      'extra fields',
      JSON.stringify({ x: 0, y: 0, width: 800, height: 600, maximized: false, z: 1 }),
    ],
    [
      'absurd numbers',
      JSON.stringify({ x: 1e308, y: 0, width: 800, height: 600, maximized: false }),
    ],
    ['fractions', JSON.stringify({ x: 0.5, y: 0, width: 800, height: 600, maximized: false })],
    [
      'a huge file',
      `{"x":0,"y":0,"width":800,"height":600,"maximized":false,"pad":"${'x'.repeat(10_000)}"}`,
    ],
  ])(
    'opens at the default place from a file with %s, and writes a good one next',
    async (_, text) => {
      await writeFile(join(dir, WINDOW_PLACE_FILE), text);
      const started = await start();
      const window = started.fake.windows[0]!;
      expect(window.options).toMatchObject({ width: 1280, height: 820 });
      expect(window.options.x).toBeUndefined();
      window.close();
      await until(async () => (await saved().catch(() => null))?.width === 1280, 'rewritten');
    },
  );
});
