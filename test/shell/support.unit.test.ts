// Support in the Electron shell, through the fake electron module (fake-electron.ts: no Electron
// binary can run here; it plays the documented events and answers): the log file in Electron's
// logs folder, Help > Show logs, a crashed or hung page reloaded (and not in a loop), and
// updates from the administrator's feed only with the rep's yes.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SHOW_LOGS_LABEL } from '../../src-main/shell/app-menu';
import {
  CRASH_LIMIT,
  CRASH_WINDOW_MS,
  UNRESPONSIVE_GRACE_MS,
} from '../../src-main/shell/renderer-watch';
import type { ShellMenuItem } from '../../src-main/shell/shell-deps';
import { UPDATE_CHECK_MS } from '../../src-main/shell/updates';
import type { FakeElectron } from './fake-electron';
import { invoke, startWithFake, type Started } from './shell-harness';

let rendererDir: string;
beforeEach(() => {
  rendererDir = mkdtempSync(join(tmpdir(), 'fieldmap-support-'));
  mkdirSync(join(rendererDir, 'assets'));
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Fieldmap</title>');
});
afterEach(() => rmSync(rendererDir, { recursive: true, force: true }));

const start = (options?: Parameters<typeof startWithFake>[1]) =>
  startWithFake(rendererDir, options);

/** The log's events so far (after its queued lines are written). */
async function logEvents(started: Started): Promise<Array<Record<string, unknown>>> {
  const log = started.handle.appLog()!;
  await log.flush();
  return readFileSync(log.paths()[0]!, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

function menuItem(template: ShellMenuItem[] | null, label: string): ShellMenuItem | undefined {
  for (const item of template ?? []) {
    if (item.label === label) return item;
    const inner = menuItem(item.submenu ?? null, label);
    if (inner) return inner;
  }
  return undefined;
}

/** Lets promise callbacks and setImmediate work (the fake's 'killed' event) run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

const gone = (fake: FakeElectron, reason = 'crashed', exitCode = 139) =>
  fake.windows[0]!.webContents.emit('render-process-gone', {}, { reason, exitCode });

describe('the log file', () => {
  it('is in Electron’s logs folder and starts with the app’s version', async () => {
    const started = await start();
    started.fake.version.current = '0.1.0';
    expect(started.handle.appLog()!.dir).toBe(join(rendererDir, 'logs'));
    expect(await logEvents(started)).toEqual([
      expect.objectContaining({ event: 'app.started', version: '0.1.0' }),
    ]);
  });
});

describe('Help > Show logs', () => {
  it('opens the logs folder; when the desktop cannot, shows the log file in its folder', async () => {
    const started = await start();
    const { fake } = started;
    const help = fake.menu.template?.find((m) => m.label === 'Help');
    expect(help?.submenu?.map((i) => i.label ?? i.type)).toEqual([
      'Show logs',
      'separator',
      'About Fieldmap',
    ]);
    menuItem(fake.menu.template, SHOW_LOGS_LABEL)!.click!();
    await until(() => fake.files.opened.length === 1);
    expect(fake.files.opened).toEqual([join(rendererDir, 'logs')]);
    expect(fake.files.shown).toEqual([]);

    fake.files.openPathResult = 'No application is associated with the folder';
    menuItem(fake.menu.template, SHOW_LOGS_LABEL)!.click!();
    await until(() => fake.files.shown.length === 1);
    expect(fake.files.shown).toEqual([join(rendererDir, 'logs', 'fieldmap.log')]);
  });
});

describe('a page that crashes', () => {
  it('is reloaded, and the new page is told once why', async () => {
    const started = await start();
    const { fake } = started;
    const window = fake.windows[0]!;
    expect(window.loaded).toEqual(['app://fieldmap/index.html']);
    gone(fake);
    expect(window.loaded).toEqual(['app://fieldmap/index.html', 'app://fieldmap/index.html']);
    expect(await invoke(fake, 'shell:take-notice', undefined)).toEqual({
      ok: true,
      value: { kind: 'crashed', at: started.clock.now },
    });
    expect(await invoke(fake, 'shell:take-notice', undefined)).toEqual({ ok: true, value: null });
    expect(await logEvents(started)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ event: 'renderer.gone', reason: 'crashed', exitCode: 139 }),
        expect.objectContaining({ event: 'renderer.reloaded', after: 'crashed' }),
      ]),
    );
  });

  it(`is not reloaded in a loop: the ${CRASH_LIMIT}rd crash within a minute asks the rep`, async () => {
    const started = await start();
    const { fake, clock } = started;
    const window = fake.windows[0]!;
    // Crashes spread out are each reloaded.
    for (let i = 0; i < 4; i++) {
      gone(fake);
      clock.advance(CRASH_WINDOW_MS / 2 + 1);
    }
    expect(window.loaded).toHaveLength(5);
    expect(fake.boxes).toEqual([]);
    clock.advance(CRASH_WINDOW_MS);

    gone(fake);
    gone(fake);
    expect(window.loaded).toHaveLength(7);
    gone(fake);
    expect(window.loaded).toHaveLength(7);
    expect(fake.boxes).toHaveLength(1);
    expect(fake.boxes[0]!.options).toMatchObject({
      type: 'error',
      message: 'Fieldmap’s window keeps stopping',
      buttons: ['Try again', 'Quit'],
    });
    expect(fake.boxes[0]!.window).toBe(window);
    fake.boxes[0]!.press(0);
    await settle();
    expect(window.loaded).toHaveLength(8);
    expect(fake.app.quitCount).toBe(0);

    // Try again starts the count afresh; another loop asks again, and Quit quits.
    gone(fake);
    gone(fake);
    gone(fake);
    expect(window.loaded).toHaveLength(10);
    expect(fake.boxes).toHaveLength(2);
    fake.boxes[1]!.press(1);
    await settle();
    expect(fake.app.quitCount).toBe(1);
    expect(window.loaded).toHaveLength(10);
    expect(await logEvents(started)).toContainEqual(
      expect.objectContaining({ event: 'renderer.crashLoop', crashes: CRASH_LIMIT }),
    );
  });
});

describe('a page that hangs', () => {
  it('is offered a restart after the grace period; a restart ends the process and reloads it', async () => {
    const started = await start();
    const { fake, clock } = started;
    const contents = fake.windows[0]!.webContents;
    contents.emit('unresponsive');
    clock.advance(UNRESPONSIVE_GRACE_MS - 1);
    expect(fake.boxes).toEqual([]);
    clock.advance(1);
    expect(fake.boxes).toHaveLength(1);
    expect(fake.boxes[0]!.options).toMatchObject({
      type: 'warning',
      message: 'Fieldmap’s window is not responding',
      buttons: ['Restart the window', 'Keep waiting'],
    });
    fake.boxes[0]!.press(0);
    await settle();
    expect(contents.ended).toBe(1);
    expect(contents.reloads).toBe(1);
    // The 'killed' that follows is the restart's own, not a crash: no second load.
    await until(() => contents.count('render-process-gone') > 0 && contents.ended === 1);
    await settle();
    expect(fake.windows[0]!.loaded).toHaveLength(1);
    expect(await invoke(fake, 'shell:take-notice', undefined)).toEqual({
      ok: true,
      value: { kind: 'unresponsive', at: clock.now },
    });
    const events = (await logEvents(started)).map((e) => e.event);
    expect(events).toEqual([
      'app.started',
      'renderer.unresponsive',
      'renderer.reloaded',
      'renderer.gone',
    ]);
  });

  it('that recovers in time is left alone; "Keep waiting" asks again after another grace period', async () => {
    const started = await start();
    const { fake, clock } = started;
    const contents = fake.windows[0]!.webContents;
    contents.emit('unresponsive');
    clock.advance(UNRESPONSIVE_GRACE_MS / 2);
    contents.emit('responsive');
    clock.advance(UNRESPONSIVE_GRACE_MS * 3);
    expect(fake.boxes).toEqual([]);

    contents.emit('unresponsive');
    clock.advance(UNRESPONSIVE_GRACE_MS);
    fake.boxes[0]!.press(1);
    await settle();
    expect(contents.ended).toBe(0);
    clock.advance(UNRESPONSIVE_GRACE_MS);
    expect(fake.boxes).toHaveLength(2);
    // It recovers while the box is open: the answer changes nothing.
    contents.emit('responsive');
    fake.boxes[1]!.press(0);
    await settle();
    expect(contents.ended).toBe(0);
    expect(contents.reloads).toBe(0);
    expect(await invoke(fake, 'shell:take-notice', undefined)).toEqual({ ok: true, value: null });
  });
});

describe('updates', () => {
  const withUpdater = (env: Record<string, string>) =>
    start({ env, prepare: (fake) => (fake.deps.autoUpdater = fake.autoUpdater) });

  it('are off without a feed, and with a feed that is not https', async () => {
    for (const [env, reason] of [
      [{}, 'no-feed'],
      [{ FIELDMAP_UPDATE_URL: 'http://updates.example.com/fieldmap/' }, 'not-https'],
      [{ FIELDMAP_UPDATE_URL: 'https://user:pw@updates.example.com/' }, 'invalid-url'],
    ] as const) {
      const started = await withUpdater(env);
      expect(started.fake.autoUpdater.feeds).toEqual([]);
      expect(started.fake.autoUpdater.checks).toBe(0);
      expect(await logEvents(started)).toContainEqual(
        expect.objectContaining({ event: 'updates.disabled', reason }),
      );
    }
  });

  it('read the generic feed, download only on the rep’s yes, install on the second yes', async () => {
    const started = await withUpdater({ FIELDMAP_UPDATE_URL: 'https://updates.example.com/fm/' });
    const { fake, clock } = started;
    const updater = fake.autoUpdater;
    expect(updater.feeds).toEqual([
      { provider: 'generic', url: 'https://updates.example.com/fm/' },
    ]);
    expect(updater.autoDownload).toBe(false);
    expect(updater.logger).toBeNull();
    // The check at start found nothing.
    expect(updater.checks).toBe(1);
    expect(fake.boxes).toEqual([]);

    updater.next = { version: '0.2.0' };
    clock.advance(UPDATE_CHECK_MS);
    await until(() => fake.boxes.length === 1);
    expect(updater.checks).toBe(2);
    expect(fake.boxes[0]!.options).toMatchObject({
      message: 'Fieldmap 0.2.0 is available',
      buttons: ['Download', 'Later'],
    });
    fake.boxes[0]!.press(1);
    await settle();
    expect(updater.downloads).toBe(0);

    clock.advance(UPDATE_CHECK_MS);
    await until(() => fake.boxes.length === 2);
    fake.boxes[1]!.press(0);
    await until(() => fake.boxes.length === 3);
    expect(updater.downloads).toBe(1);
    expect(fake.boxes[2]!.options).toMatchObject({
      message: 'Fieldmap 0.2.0 is ready to install',
      buttons: ['Restart now', 'Later'],
    });
    fake.boxes[2]!.press(0);
    await settle();
    expect(updater.installs).toBe(1);
    expect(fake.app.quitCount).toBe(1);
    const events = (await logEvents(started)).map((e) => e.event);
    expect(events).toEqual(
      expect.arrayContaining(['updates.available', 'updates.downloaded', 'updates.answer']),
    );
  });

  it('a failed check is logged, not shown, and the next check still runs', async () => {
    const started = await withUpdater({ FIELDMAP_UPDATE_URL: 'https://updates.example.com/fm/' });
    const { fake, clock } = started;
    const failure = Object.assign(new Error('Cannot find latest.yml in https://updates…'), {
      code: 'ERR_UPDATER_CHANNEL_FILE_NOT_FOUND',
    });
    fake.autoUpdater.next = failure;
    clock.advance(UPDATE_CHECK_MS);
    await settle();
    expect(fake.boxes).toEqual([]);
    expect(fake.dialogs.errors).toEqual([]);
    fake.autoUpdater.next = null;
    clock.advance(UPDATE_CHECK_MS);
    expect(fake.autoUpdater.checks).toBe(3);
    const log = await logEvents(started);
    expect(log).toContainEqual(
      expect.objectContaining({
        event: 'updates.failed',
        name: 'Error',
        code: 'ERR_UPDATER_CHANNEL_FILE_NOT_FOUND',
      }),
    );
    expect(JSON.stringify(log)).not.toContain('latest.yml');
  });
});

/** Waits for promise work the test set going (a click's async handler); bounded, throws. */
async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await settle();
  if (!check()) throw new Error('never reached');
}
