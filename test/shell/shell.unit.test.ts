// The Electron shell's security settings, asserted through a fake electron module (see
// fake-electron.ts: no Electron binary can be installed or started here).
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { invokeChannels } from '../../src-shared/ipc-contract';
import { startShell } from '../../src-main/shell/start-shell';
import { createFakeElectron, FakeEvent } from './fake-electron';
import { APP_FRAME, invoke, startWithFake } from './shell-harness';

let rendererDir: string;
beforeEach(() => {
  rendererDir = mkdtempSync(join(tmpdir(), 'fieldmap-shell-'));
  mkdirSync(join(rendererDir, 'assets'));
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Fieldmap</title>');
  writeFileSync(join(rendererDir, 'assets', 'app.js'), 'console.log(1)');
});
afterEach(() => rmSync(rendererDir, { recursive: true, force: true }));

const start = (options?: Parameters<typeof startWithFake>[1]) =>
  startWithFake(rendererDir, options);

describe('process-wide switches', () => {
  it('enables the sandbox for every renderer before ready, then takes the single-instance lock', async () => {
    const { fake } = await start();
    expect(fake.calls.indexOf('app.enableSandbox')).toBeGreaterThanOrEqual(0);
    expect(fake.calls.indexOf('app.enableSandbox')).toBeLessThan(fake.calls.indexOf('ready'));
    expect(fake.calls.indexOf('app.requestSingleInstanceLock')).toBeLessThan(
      fake.calls.indexOf('ready'),
    );
  });

  it('registers app: as a privileged standard, secure scheme before ready', async () => {
    const { fake } = await start();
    expect(fake.calls.indexOf('protocol.registerSchemesAsPrivileged')).toBeLessThan(
      fake.calls.indexOf('ready'),
    );
    expect(fake.privileged).toEqual([
      {
        scheme: 'app',
        privileges: { standard: true, secure: true, supportFetchAPI: true, stream: true },
      },
    ]);
    expect([...fake.protocolHandlers.keys()]).toEqual(['app']);
  });

  it('a second instance quits at once and opens nothing', () => {
    const fake = createFakeElectron({ lock: false });
    const handle = startShell(fake.deps, {
      rendererDir,
      preloadPath: '/p.cjs',
      createServices: () => {
        throw new Error('must not start services');
      },
    });
    expect(handle).toBeNull();
    expect(fake.app.quitCount).toBe(1);
    expect(fake.privileged).toEqual([]);
    expect(fake.windows).toEqual([]);
  });

  it('the first instance restores and focuses its window when a second one starts', async () => {
    const { fake } = await start();
    const window = fake.windows[0]!;
    window.minimized = true;
    fake.app.emit('second-instance');
    expect(window.restored).toBe(1);
    expect(window.focused).toBe(1);
  });
});

describe('the window', () => {
  it('is a sandboxed, context-isolated page with no Node.js, loaded from app://', async () => {
    const { fake } = await start();
    expect(fake.windows).toHaveLength(1);
    const window = fake.windows[0]!;
    expect(window.options.webPreferences).toEqual({
      preload: '/app/out/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      disableBlinkFeatures: 'Auxclick',
    });
    expect(window.loaded).toEqual(['app://fieldmap/index.html']);
    expect(window.loaded.some((url) => url.startsWith('file:'))).toBe(false);
    window.emit('ready-to-show');
    expect(window.shown).toBe(true);
  });

  it('stays on the app: navigations and redirects elsewhere are prevented', async () => {
    const { fake } = await start();
    const contents = fake.windows[0]!.webContents;
    for (const url of [
      'https://evil.example/',
      'file:///etc/passwd',
      'http://127.0.0.1/',
      'app://other/index.html',
      // The app's data paths are not pages: a navigation to them would render remote bytes.
      'app://fieldmap/tiles?url=https%3A%2F%2Fevil.example%2Fx.html',
      'app://fieldmap/regions/alps.pmtiles',
    ]) {
      for (const event of ['will-navigate', 'will-redirect']) {
        const e = new FakeEvent();
        contents.emit(event, e, url);
        expect(e.defaultPrevented, `${event} ${url}`).toBe(true);
      }
    }
    const own = new FakeEvent();
    contents.emit('will-navigate', own, 'app://fieldmap/index.html#/settings');
    expect(own.defaultPrevented).toBe(false);
  });

  it('denies every new window and every <webview>', async () => {
    const { fake } = await start();
    const contents = fake.windows[0]!.webContents;
    for (const url of ['https://example.com/', 'app://fieldmap/index.html', 'about:blank']) {
      expect(contents.openHandler?.({ url })).toEqual({ action: 'deny' });
    }
    const e = new FakeEvent();
    contents.emit('will-attach-webview', e);
    expect(e.defaultPrevented).toBe(true);
  });

  it('hardens every web contents created, not only the main window', async () => {
    const { fake } = await start();
    const { FakeWebContents } = await import('./fake-electron');
    const other = new FakeWebContents();
    fake.app.emit('web-contents-created', {}, other);
    const e = new FakeEvent();
    other.emit('will-navigate', e, 'https://evil.example/');
    expect(e.defaultPrevented).toBe(true);
    expect(other.openHandler?.({ url: 'https://x.example/' })).toEqual({ action: 'deny' });
  });
});

describe('permissions', () => {
  it('denies every permission request and check', async () => {
    const { fake } = await start();
    for (const permission of [
      'geolocation',
      'media',
      'notifications',
      'clipboard-read',
      'openExternal',
      'hid',
    ]) {
      const answers: boolean[] = [];
      fake.permissions.request?.({}, permission, (granted) => answers.push(granted));
      expect(answers, permission).toEqual([false]);
      expect(fake.permissions.check?.({}, permission), permission).toBe(false);
    }
    expect(fake.permissions.device?.()).toBe(false);
  });
});

describe('the app:// protocol as registered', () => {
  it('serves the renderer with the strict CSP and refuses traversal', async () => {
    const { fake } = await start();
    const handler = fake.protocolHandlers.get('app')!;
    const page = await handler(new Request('app://fieldmap/index.html'));
    expect(page.status).toBe(200);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-eval');
    const escaped = await handler(new Request('app://fieldmap/assets/..%2f..%2f..%2fetc%2fpasswd'));
    expect(escaped.status).toBe(403);
  });
});

describe('services on the app:// protocol', () => {
  it('routes dynamic paths to the services, with the CSP', async () => {
    const { fake, services } = await start();
    const seen: Array<{ path: string; range: string | null }> = [];
    services.handleAppRequest = async (url, range) => {
      seen.push({ path: url.pathname, range });
      if (url.pathname !== '/tiles') return null;
      return {
        status: 200,
        headers: { 'Content-Type': 'application/x-protobuf' },
        body: new Uint8Array([7]),
      };
    };
    const handler = fake.protocolHandlers.get('app')!;
    const tile = await handler(
      new Request('app://fieldmap/tiles?url=https%3A%2F%2Ft.example%2F1.pbf'),
    );
    expect(tile.status).toBe(200);
    expect(tile.headers.get('content-type')).toBe('application/x-protobuf');
    expect(tile.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect((await handler(new Request('app://fieldmap/index.html'))).status).toBe(200);
    expect(seen).toEqual([
      { path: '/tiles', range: null },
      { path: '/index.html', range: null },
    ]);
  });
});

describe('IPC wiring', () => {
  it('registers one handler per contract channel', async () => {
    const { fake } = await start();
    expect([...fake.ipcHandlers.keys()].sort()).toEqual(Object.keys(invokeChannels).sort());
  });

  it('answers the app main frame and refuses a child frame, another origin and a vanished frame', async () => {
    const { fake } = await start();
    expect(await invoke(fake, 'accounts:list', undefined)).toEqual({ ok: true, value: [] });
    const child = await invoke(fake, 'accounts:list', undefined, {
      url: 'app://fieldmap/index.html',
      parent: APP_FRAME,
    });
    expect(child).toMatchObject({ ok: false, error: { kind: 'InvalidRequest' } });
    const other = await invoke(fake, 'accounts:list', undefined, {
      url: 'https://evil.example/',
      parent: null,
    });
    expect(other).toEqual({
      ok: false,
      error: expect.objectContaining({
        message: 'Refused: call from a foreign frame (https://evil.example/)',
      }),
    });
    expect(await invoke(fake, 'accounts:list', undefined, null)).toMatchObject({ ok: false });
  });

  it('refuses a bad payload naming the field', async () => {
    const { fake } = await start();
    const result = await invoke(fake, 'session:login', {
      baseUrl: 'http://127.0.0.1',
      username: 7,
      password: 'x',
    });
    expect(result).toMatchObject({
      ok: false,
      error: { kind: 'InvalidRequest', field: 'username' },
    });
  });

  it("emits service events to the window, the road's once the page opened it", async () => {
    const { fake, services } = await start();
    const emit = services.emit as unknown as ((event: string, payload: unknown) => void) & {
      openRoad(): void;
    };
    emit('customer:open', {});
    emit('session:changed', null);
    emit.openRoad();
    emit('session:changed', null);
    expect(fake.windows[0]!.webContents.sent).toEqual([
      { channel: 'customer:open', args: [{}] },
      {
        channel: 'data:road',
        args: [{ road: 1, seq: 1, event: 'session:changed', payload: null }],
      },
    ]);
  });
});

describe('openExternal through IPC', () => {
  it('opens an https link on a user click via shell.openExternal', async () => {
    const { fake } = await start();
    const result = await invoke(fake, 'shell:open-external', {
      url: 'https://example.com/help?q=1',
      userActivated: true,
    });
    expect(result).toEqual({ ok: true, value: true });
    expect(fake.opened).toEqual(['https://example.com/help?q=1']);
  });

  it('refuses without a user click, and refuses every non-https or credentialed URL', async () => {
    const { fake } = await start();
    const noClick = await invoke(fake, 'shell:open-external', { url: 'https://example.com/' });
    expect(noClick).toMatchObject({
      ok: false,
      error: { kind: 'InvalidRequest', message: expect.stringContaining('click') },
    });
    for (const url of [
      'javascript:alert(1)',
      'file:///etc/passwd',
      'http://example.com/',
      'https://user:pw@example.com/',
      'https://user@example.com/',
      'smb://host/share',
      'not a url',
      'app://fieldmap/index.html',
    ]) {
      const result = await invoke(fake, 'shell:open-external', { url, userActivated: true });
      expect(result, url).toMatchObject({ ok: false, error: { kind: 'InvalidRequest' } });
    }
    expect(fake.opened).toEqual([]);
  });
});

describe('connectivity and lifecycle', () => {
  it('tells the services when the network comes back and when the machine resumes', async () => {
    const { fake, handle, services, poll } = await start({ online: false });
    expect(poll.ms).toBeGreaterThan(0);
    poll.callback?.();
    expect(services.online).toBe(0);
    fake.network.online = true;
    handle.checkOnline();
    expect(services.online).toBe(1);
    handle.checkOnline();
    expect(services.online).toBe(1);
    fake.powerMonitor.emit('resume');
    expect(services.resumed).toBe(1);
  });

  it('disposes the services before quitting, once', async () => {
    const { fake, services, poll } = await start();
    const first = new FakeEvent();
    fake.app.emit('will-quit', first);
    expect(first.defaultPrevented).toBe(true);
    expect(poll.cleared).toBe(true);
    await new Promise((resolve) => setImmediate(resolve));
    expect(services.disposed).toBe(1);
    expect(fake.app.quitCount).toBe(1);
    const second = new FakeEvent();
    fake.app.emit('will-quit', second);
    expect(second.defaultPrevented).toBe(false);
  });

  it('quits when the last window closes, except on macOS', async () => {
    const linux = await start();
    linux.fake.app.emit('window-all-closed');
    expect(linux.fake.app.quitCount).toBe(1);
    const mac = await start({ platform: 'darwin' });
    mac.fake.app.emit('window-all-closed');
    expect(mac.fake.app.quitCount).toBe(0);
  });
});

describe('reminders in the OS', () => {
  const notice = {
    accountKey: 'acct',
    customerId: 'Aaaaaaaaa1',
    title: 'Call: Müller GmbH',
    body: '12 High St, Leeds',
  };

  it('shows a reminder while the window is minimised; a click restores it and opens the customer', async () => {
    const { fake, services } = await start();
    const window = fake.windows[0]!;
    window.minimized = true;
    const opened: string[] = [];
    services.notify!(notice, () => opened.push(notice.customerId));
    expect(fake.notifications.shown.map((n) => n.options)).toEqual([
      { title: 'Call: Müller GmbH', body: '12 High St, Leeds' },
    ]);
    expect(opened).toEqual([]);
    fake.notifications.shown[0]!.click();
    expect(window.restored).toBe(1);
    expect(window.focused).toBe(1);
    expect(opened).toEqual(['Aaaaaaaaa1']);
  });

  it('on macOS, with the window closed, a click opens the window again', async () => {
    const { fake, services } = await start({ platform: 'darwin' });
    fake.windows[0]!.close();
    fake.app.emit('window-all-closed');
    expect(fake.app.quitCount).toBe(0);
    services.notify!(notice, () => undefined);
    fake.notifications.shown[0]!.click();
    expect(fake.windows).toHaveLength(2);
    expect(fake.windows[1]!.destroyed).toBe(false);
  });

  it('says so in the log where the desktop has no notification service', async () => {
    const { fake, services, log } = await start();
    fake.notifications.supported = false;
    services.notify!(notice, () => undefined);
    expect(fake.notifications.shown).toEqual([]);
    expect(log.some((line) => line.includes('no notification service'))).toBe(true);
  });
});

describe('the tray (Windows, Linux)', () => {
  it('closing the window hides it there, says so once, and reminders still come', async () => {
    const { fake, services } = await start({ platform: 'win32' });
    const window = fake.windows[0]!;
    window.shown = true;
    expect(fake.trays.map((t) => [t.tooltip, t.iconPath.endsWith('tray.png')])).toEqual([
      ['Fieldmap', true],
    ]);
    window.close();
    expect(window.destroyed).toBe(false);
    expect(window.shown).toBe(false);
    expect(fake.notifications.shown.map((n) => n.options.title)).toEqual([
      'Fieldmap is still running',
    ]);
    window.close();
    expect(fake.notifications.shown).toHaveLength(1);

    const opened: string[] = [];
    services.notify!(
      { accountKey: 'acct', customerId: 'Aaaaaaaaa1', title: 'Call: Acme', body: '' },
      () => opened.push('Aaaaaaaaa1'),
    );
    fake.notifications.shown[1]!.click();
    expect(window.shown).toBe(true);
    expect(fake.windows).toHaveLength(1);
    expect(opened).toEqual(['Aaaaaaaaa1']);

    window.close();
    fake.trays[0]!.pick('Open Fieldmap');
    expect(window.shown).toBe(true);
  });

  it('Quit in its menu quits, closing the window for real', async () => {
    const { fake } = await start({ platform: 'linux' });
    const window = fake.windows[0]!;
    fake.trays[0]!.pick('Quit Fieldmap');
    expect(fake.app.quitCount).toBe(1);
    expect(window.destroyed).toBe(true);
    fake.app.emit('will-quit', new FakeEvent());
    expect(fake.trays[0]!.destroyed).toBe(true);
  });

  it('is not on macOS, where the app lives on in the Dock', async () => {
    const { fake } = await start({ platform: 'darwin' });
    expect(fake.trays).toEqual([]);
    fake.windows[0]!.close();
    expect(fake.windows[0]!.destroyed).toBe(true);
  });
});

describe("fieldmap:// links (a calendar event's)", () => {
  const LINK = 'fieldmap://customer/Aaaaaaaaa1';

  it('registers the scheme, and opens a link that started the app once main is ready', async () => {
    const { fake, services } = await start({ argv: ['/opt/Fieldmap/fieldmap', LINK] });
    expect(fake.app.protocolClients).toEqual(['fieldmap']);
    expect(services.links).toEqual([LINK]);
    expect(fake.windows[0]!.focused).toBe(1);
  });

  it('takes a link from a second start (Windows, Linux) and brings the window forward', async () => {
    const { fake, services } = await start();
    const window = fake.windows[0]!;
    window.minimized = true;
    fake.app.emit('second-instance', {}, ['C:\\Fieldmap\\Fieldmap.exe', '--', LINK]);
    expect(services.links).toEqual([LINK]);
    expect(window.restored).toBe(1);
    // A second start without a link only brings the window forward.
    fake.app.emit('second-instance', {}, ['C:\\Fieldmap\\Fieldmap.exe']);
    expect(services.links).toEqual([LINK]);
    expect(window.focused).toBe(2);
  });

  it("takes macOS' open-url, and ignores a link that names no customer", async () => {
    const { fake, services, log } = await start({ platform: 'darwin' });
    const event = new FakeEvent();
    fake.app.emit('open-url', event, LINK);
    expect(event.defaultPrevented).toBe(true);
    expect(services.links).toEqual([LINK]);
    const focused = fake.windows[0]!.focused;
    fake.app.emit('open-url', new FakeEvent(), 'fieldmap://settings/delete-everything');
    expect(fake.windows[0]!.focused).toBe(focused);
    expect(log.some((line) => line.includes('names no customer'))).toBe(true);
  });
});
