// The app:// CSP in real Chromium, on the real built renderer: the app starts without a single
// policy violation, and the policy really blocks eval, inline scripts and remote connections.
// The files come through the shell's own protocol handler (createAppProtocolHandler), routed by
// Playwright on an http origin because Chromium alone has no app: scheme (that needs Electron).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../support/browser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppProtocolHandler } from '../../src-main/shell/app-protocol';
import { buildContentSecurityPolicy } from '../../src-main/shell/csp';
import { invokeChannels, type InvokeChannel, type ResponseOf } from '../../src-shared/ipc-contract';

const root = join(import.meta.dirname, '..', '..');
const rendererDir = join(root, 'out', 'renderer');
const ORIGIN = 'http://fieldmap-csp.localhost';

let browser: Browser;
let page: Page;

beforeAll(async () => {
  // `npm test` builds first; a lone run of this suite builds when the renderer is missing.
  if (!existsSync(join(rendererDir, 'index.html'))) {
    execFileSync('npx', ['electron-vite', 'build'], { cwd: root, stdio: 'ignore' });
  }
  const handler = createAppProtocolHandler({
    rootDir: rendererDir,
    contentSecurityPolicy: buildContentSecurityPolicy(),
    log: () => {},
  });
  browser = await launchBrowser();
  const context = await browser.newContext();
  await context.route('**/*', async (route) => {
    const url = new URL(route.request().url());
    if (url.origin !== ORIGIN) return route.abort('blockedbyclient');
    const response = await handler(new Request(`app://fieldmap${url.pathname}${url.search}`));
    await route.fulfill({
      status: response.status,
      headers: Object.fromEntries(response.headers),
      body: Buffer.from(await response.arrayBuffer()),
    });
  });
  // Record violations from the first script on, and stand in for the preload's window.fieldmap
  // (signed out; every other call refused) so the app renders its first screen. Its methods are
  // the contract's, and the answers are typed by it; the page gets them as data.
  const answers: { [C in InvokeChannel]?: ResponseOf<C> } = {
    'accounts:list': [],
    'session:current': null,
    'sync:state': { kind: 'signed-out' },
    'outbox:list': [],
    'conflicts:list': [],
  };
  const methods = (Object.keys(invokeChannels) as InvokeChannel[]).map((channel) => ({
    name: invokeChannels[channel].method,
    answered: channel in answers,
    answer: answers[channel] ?? null,
  }));
  await context.addInitScript((methods) => {
    const w = window as unknown as { cspViolations: string[]; fieldmap: unknown };
    w.cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      w.cspViolations.push(`${e.effectiveDirective} ${e.blockedURI}`),
    );
    const refused = {
      name: 'FieldmapError',
      message: 'Sign in first.',
      info: { kind: 'NotSignedIn', message: 'Sign in first.' },
    };
    const api: Record<string, unknown> = { on: () => () => {} };
    for (const { name, answered, answer } of methods) {
      api[name] = async () => (answered ? answer : Promise.reject(refused));
    }
    w.fieldmap = Object.freeze(api);
  }, methods);
  page = await context.newPage();
  await page.goto(`${ORIGIN}/index.html`);
  await page.waitForFunction(() => (document.querySelector('#app')?.childElementCount ?? 0) > 0);
});

afterAll(async () => {
  await browser?.close();
});

const violations = () =>
  page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);

describe('CSP in Chromium', () => {
  it('the built renderer starts with no violation', async () => {
    expect(await violations()).toEqual([]);
  });

  it('blocks eval, new Function, inline scripts and remote fetches', async () => {
    const outcome = await page.evaluate(async () => {
      // DevTools-protocol evaluation is exempt from the CSP; code the page runs later is not.
      const later = <T>(f: () => T) =>
        new Promise<T>((resolve) => setTimeout(() => resolve(f()), 0));
      const tryIt = (f: () => unknown) =>
        later(() => {
          try {
            f();
            return 'ran';
          } catch (e) {
            return (e as Error).name;
          }
        });
      const w = window as unknown as { inlineRan?: boolean };
      const script = document.createElement('script');
      script.textContent = 'window.inlineRan = true';
      document.head.append(script);
      let remote = 'fetched';
      await fetch('https://example.com/').catch(() => (remote = 'blocked'));
      return {
        // These run in the page to prove the CSP refuses them.
        // eslint-disable-next-line no-eval
        eval: await tryIt(() => eval('1 + 1')),
        // eslint-disable-next-line no-new-func
        newFunction: await tryIt(() => new Function('return 1')()),
        inline: w.inlineRan === true ? 'ran' : 'blocked',
        remote,
      };
    });
    expect(outcome).toEqual({
      eval: 'EvalError',
      newFunction: 'EvalError',
      inline: 'blocked',
      remote: 'blocked',
    });
    const seen = await violations();
    expect(seen.some((v) => v.startsWith('script-src'))).toBe(true);
    expect(seen.some((v) => v.startsWith('connect-src') && v.includes('example.com'))).toBe(true);
  });
});
