// The browser runner: the CLI writes a screenshot of the built renderer, and the harness (the
// same launch code) gives the page the same window.fieldmap as Electron's preload, guarded by
// the same router. Real Chromium, real services, real files.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRunnerArgs } from '../../scripts/browser-runner/cli-options';
import { launchApp, startTestService, type AppHandle, type TestService } from '../support/app';

const REPO = resolve(import.meta.dirname, '../..');
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function run(command: string, args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', fail);
    child.on('close', (code) => done({ code, output }));
  });
}

describe('npm run start:browser', () => {
  it('writes a screenshot of the app with --headless --screenshot', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'fieldmap-runner-'));
    try {
      const shot = join(dir, 'shot.png');
      const { code, output } = await run('npm', [
        'run',
        '--silent',
        'start:browser',
        '--',
        '--headless',
        '--screenshot',
        shot,
        '--data-dir',
        join(dir, 'data'),
      ]);
      expect(code, output).toBe(0);
      const png = await readFile(shot);
      expect(png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
      expect(png.length).toBeGreaterThan(1_000);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('runner options', () => {
  it('parses the runner flags and the app options, and refuses unknown ones with the usage', () => {
    const options = parseRunnerArgs([
      '--headless',
      '--screenshot=out.png',
      '--demo',
      '--data-dir',
      '/tmp/x',
      '--service-url',
      'https://svc.example',
      '--limiter-rate',
      '2',
      '--locale',
      'en-US',
    ]);
    expect(options).toMatchObject({
      headless: true,
      screenshot: resolve(process.env.INIT_CWD ?? process.cwd(), 'out.png'),
      demo: true,
      dataDir: '/tmp/x',
      serviceUrl: 'https://svc.example',
      limiterRate: 2,
      offline: false,
      locale: 'en-US',
    });
    expect(() => parseRunnerArgs(['--no-such-flag'])).toThrow(
      /unknown option --no-such-flag[\s\S]*--screenshot <file>/,
    );
    expect(() => parseRunnerArgs(['--screenshot'])).toThrow(/--screenshot needs a value/);
    expect(() => parseRunnerArgs(['--limiter-rate', '0'])).toThrow(/positive/);
  });
});

describe('window.fieldmap in the runner', () => {
  let service: TestService;
  let app: AppHandle;

  beforeAll(async () => {
    service = await startTestService({ customers: 30, seed: 5 });
    app = await launchApp({ serviceUrl: service.url, limiterRate: 20 });
  });
  afterAll(async () => {
    await app?.close();
    await service?.stop();
  });

  it('is one frozen object with a method per channel', async () => {
    const shape = await app.page.evaluate(() => {
      const api = (globalThis as unknown as { fieldmap: Record<string, unknown> }).fieldmap;
      return {
        frozen: Object.isFrozen(api),
        methods: Object.keys(api)
          .filter((k) => typeof api[k] === 'function')
          .sort(),
        replaced: (() => {
          try {
            (globalThis as unknown as { fieldmap: unknown }).fieldmap = {};
          } catch {
            /* strict-mode assignment to a read-only property */
          }
          return (globalThis as unknown as { fieldmap: unknown }).fieldmap === api;
        })(),
      };
    });
    expect(shape.frozen).toBe(true);
    expect(shape.replaced).toBe(true);
    expect(shape.methods).toEqual(
      expect.arrayContaining(['login', 'enqueue', 'syncNow', 'on', 'listAccounts']),
    );
  });

  it('rejects a bad payload with a FieldmapError naming the field', async () => {
    const error = await app.page.evaluate(async () => {
      const api = (globalThis as unknown as { fieldmap: { login(r: unknown): Promise<unknown> } })
        .fieldmap;
      try {
        await api.login({ baseUrl: 'https://example.com', username: 42, password: 'x' });
        return null;
      } catch (e) {
        const err = e as Error & { info?: { kind: string; field?: string } };
        return {
          name: err.name,
          message: err.message,
          kind: err.info?.kind,
          field: err.info?.field,
        };
      }
    });
    expect(error).toMatchObject({
      name: 'FieldmapError',
      kind: 'InvalidRequest',
      field: 'username',
    });
    expect(error?.message).toContain('username');
  });

  it("signs in, delivers main's road to the page and keeps passwords in main", async () => {
    const { username, password } = service.account;
    const account = await app.call<{ accountKey: string }>('login', {
      baseUrl: service.url,
      username,
      password,
    });
    expect(account.accountKey).toBe(`${service.url}#${username}`);
    // A change: sent by main, and the page's status bar says so once the cache worker applied
    // main's word on the road (its session, outbox mirror and sync states).
    const customer = service.store.customers(username)[0]!;
    await app.call('enqueue', {
      kind: 'updateCustomer',
      target: customer.id,
      payload: { phone: '555-0101' },
      base: customer,
    });
    await expect
      .poll(() => service.store.customers(username).find((c) => c.id === customer.id)?.phone)
      .toBe('555-0101');
    await app.page.waitForFunction(
      () => document.querySelector('.sync-status')?.getAttribute('data-tone') === 'ok',
    );
    expect(JSON.stringify(await app.call('listAccounts'))).not.toContain(password);
  });

  it('cuts and restores the network of main with setOffline', async () => {
    const { username, password } = service.account;
    await app.setOffline(true);
    const offline = await app.page.evaluate(
      async ([baseUrl, u, p]) => {
        const api = (globalThis as unknown as { fieldmap: { login(r: unknown): Promise<unknown> } })
          .fieldmap;
        try {
          await api.login({ baseUrl, username: u, password: p });
          return 'signed in';
        } catch (e) {
          return (e as { info?: { kind: string } }).info?.kind;
        }
      },
      [service.url, username, password] as const,
    );
    expect(offline).toBe('Offline');
    await app.setOffline(false);
    expect(await app.call('login', { baseUrl: service.url, username, password })).toMatchObject({
      username,
    });
  });

  it('refuses calls from a foreign page and from an iframe of another origin', async () => {
    await app.context.route('http://evil.localhost/**', (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: '<!doctype html><iframe src="http://other.localhost/frame.html"></iframe>',
      }),
    );
    await app.context.route('http://other.localhost/**', (route) =>
      route.fulfill({ contentType: 'text/html', body: '<!doctype html><p>frame</p>' }),
    );
    const evil = await app.context.newPage();
    try {
      await evil.goto('http://evil.localhost/');
      const frame = evil.frames().find((f) => f.url().startsWith('http://other.localhost/'));
      expect(frame).toBeDefined();
      const attempt = (target: typeof evil | NonNullable<typeof frame>) =>
        target.evaluate(async () => {
          const api = (globalThis as unknown as { fieldmap?: { listAccounts(): Promise<unknown> } })
            .fieldmap;
          if (!api) return 'no api';
          try {
            return { value: await api.listAccounts() };
          } catch (e) {
            return { error: (e as Error).message };
          }
        });
      expect(await attempt(frame!)).toEqual({ error: expect.stringContaining('foreign frame') });
      expect(await attempt(evil)).toEqual({ error: expect.stringContaining('foreign frame') });
      // The same call from the app's own page is answered.
      expect(await app.call('listAccounts')).toHaveLength(1);
    } finally {
      await evil.close();
    }
  });

  it('restarts on the same data dir and browser profile', async () => {
    // Page code as strings: this file is type-checked without the DOM library.
    await app.page.evaluate(`new Promise((done, fail) => {
      const open = indexedDB.open('harness-probe', 1);
      open.onupgradeneeded = () => open.result.createObjectStore('kv');
      open.onerror = () => fail(open.error);
      open.onsuccess = () => {
        const tx = open.result.transaction('kv', 'readwrite');
        tx.objectStore('kv').put('kept', 'k');
        tx.oncomplete = () => { open.result.close(); done(); };
      };
    })`);
    const before = await app.call<{ accountKey: string } | null>('currentAccount');
    await app.restart();
    // What the status bar said from the page's start until main's first word: never a sign-out
    // (the saved sign-in is being opened). Page code as a string, as above.
    const said = (await app.page.evaluate(`new Promise((done) => {
      const seen = [];
      const look = () => {
        const status = document.querySelector('.sync-status');
        const words = status?.querySelector('.text')?.textContent ?? '';
        if (seen.at(-1) !== words) seen.push(words);
        const kind = status?.getAttribute('data-sync');
        if (status && kind !== 'signed-out' && kind !== 'opening') done(seen);
        else requestAnimationFrame(look);
      };
      look();
    })`)) as string[];
    expect(said).not.toContain('Not signed in');
    expect(await app.call('currentAccount')).toEqual(before);
    const value = await app.page.evaluate(`new Promise((done, fail) => {
      const open = indexedDB.open('harness-probe', 1);
      open.onerror = () => fail(open.error);
      open.onsuccess = () => {
        const get = open.result.transaction('kv').objectStore('kv').get('k');
        get.onsuccess = () => done(get.result);
      };
    })`);
    expect(value).toBe('kept');
  });
});
