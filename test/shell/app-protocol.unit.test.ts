// app://fieldmap/ serving real files from a temp dir: content types, the CSP on every response,
// and every way out of the root refused.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAppProtocolHandler,
  isAppUrl,
  resolveAppPath,
} from '../../src-main/shell/app-protocol';
import { buildContentSecurityPolicy } from '../../src-main/shell/csp';

let base: string;
let root: string;
const logged: string[] = [];
let handler: (request: Request) => Promise<Response>;

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'fieldmap-protocol-'));
  root = join(base, 'renderer');
  mkdirSync(join(root, 'assets'), { recursive: true });
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>Fieldmap</title>');
  writeFileSync(join(root, 'assets', 'index-abc.js'), 'export const x = 1;');
  writeFileSync(join(root, 'assets', 'index-abc.css'), 'body{}');
  writeFileSync(join(base, 'secret.txt'), 'outside the app');
  symlinkSync(join(base, 'secret.txt'), join(root, 'assets', 'link.txt'));
  handler = createAppProtocolHandler({
    rootDir: root,
    contentSecurityPolicy: buildContentSecurityPolicy(),
    log: (message) => logged.push(message),
  });
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

const get = (url: string, init?: RequestInit) => handler(new Request(url, init));

describe('CSP', () => {
  const csp = buildContentSecurityPolicy();
  const directive = (name: string) =>
    csp
      .split(';')
      .map((d) => d.trim())
      .find((d) => d.startsWith(`${name} `));

  it('allows only the app own scripts: no eval, no inline script, no remote host', () => {
    expect(directive('script-src')).toBe("script-src 'self'");
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).not.toMatch(/https?:/);
    expect(csp).not.toContain('*');
  });

  it('has every directive of the policy', () => {
    expect(directive('default-src')).toBe("default-src 'self'");
    expect(directive('style-src')).toBe("style-src 'self' 'unsafe-inline'");
    expect(directive('img-src')).toBe("img-src 'self' data: blob:");
    expect(directive('worker-src')).toBe("worker-src 'self' blob:");
    expect(directive('connect-src')).toBe("connect-src 'self' app: blob:");
    expect(directive('font-src')).toBe("font-src 'self'");
    expect(directive('object-src')).toBe("object-src 'none'");
    expect(directive('frame-src')).toBe("frame-src 'none'");
    expect(directive('child-src')).toBe("child-src 'none'");
    expect(directive('base-uri')).toBe("base-uri 'none'");
    expect(directive('frame-ancestors')).toBe("frame-ancestors 'none'");
    expect(directive('form-action')).toBe("form-action 'none'");
  });

  it('adds an online tile host to connect-src only when configured', () => {
    const online = buildContentSecurityPolicy({ connectSources: ['https://tiles.example.com'] });
    expect(online).toContain("connect-src 'self' app: blob: https://tiles.example.com");
    expect(online).toContain("script-src 'self';");
  });
});

describe('serving', () => {
  it('serves index.html at / and at /index.html with the CSP and nosniff', async () => {
    for (const url of ['app://fieldmap/', 'app://fieldmap/index.html']) {
      const response = await get(url);
      expect(response.status, url).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('content-security-policy')).toBe(buildContentSecurityPolicy());
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(await response.text()).toContain('<title>Fieldmap</title>');
    }
  });

  it('serves scripts and styles with their types', async () => {
    const js = await get('app://fieldmap/assets/index-abc.js');
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await js.text()).toBe('export const x = 1;');
    const css = await get('app://fieldmap/assets/index-abc.css');
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
  });

  it('answers 404 with the CSP for a missing file or a directory', async () => {
    for (const url of ['app://fieldmap/nope.js', 'app://fieldmap/assets']) {
      const response = await get(url);
      expect(response.status, url).toBe(404);
      expect(response.headers.get('content-security-policy')).toBe(buildContentSecurityPolicy());
    }
  });

  it('refuses other hosts and methods', async () => {
    expect((await get('app://other/index.html')).status).toBe(404);
    expect((await get('app://fieldmap/index.html', { method: 'POST', body: 'x' })).status).toBe(
      405,
    );
  });
});

describe('path traversal', () => {
  it('refuses encoded slashes, backslashes, NUL and symlinks out of the root', async () => {
    const attempts = [
      'app://fieldmap/..%2fsecret.txt',
      'app://fieldmap/assets/..%2f..%2fsecret.txt',
      'app://fieldmap/%2e%2e%2fsecret.txt',
      'app://fieldmap/..%5csecret.txt',
      'app://fieldmap/index.html%00.js',
      'app://fieldmap/assets/link.txt',
    ];
    for (const url of attempts) {
      const response = await get(url);
      expect(response.status, url).toBe(403);
      expect(await response.text()).not.toContain('outside the app');
    }
    expect(logged.some((line) => line.includes('refused'))).toBe(true);
  });

  it('keeps dot segments the URL parser normalises inside the root', async () => {
    // new URL() resolves ../ before the handler sees it: the request cannot climb above /.
    const response = await get('app://fieldmap/../../secret.txt');
    expect(response.status).toBe(404);
  });

  it('resolveAppPath never returns a path outside the root', () => {
    expect(resolveAppPath('/srv/app', '/a/b.js')).toBe('/srv/app/a/b.js');
    expect(resolveAppPath('/srv/app', '/')).toBe('/srv/app/index.html');
    expect(resolveAppPath('/srv/app', '/a/%2e%2e/%2e%2e/x')).toBeNull();
    expect(resolveAppPath('/srv/app', '/%E0%A4%A')).toBeNull();
  });

  it('isAppUrl accepts only app://fieldmap', () => {
    expect(isAppUrl('app://fieldmap/index.html')).toBe(true);
    expect(isAppUrl('app://fieldmap.evil/index.html')).toBe(false);
    expect(isAppUrl('https://fieldmap/')).toBe(false);
    expect(isAppUrl('nonsense')).toBe(false);
  });
});

describe('dynamic paths served by main-process services', () => {
  const dynamicHandler = createAppProtocolHandler({
    rootDir: join(tmpdir(), 'fieldmap-no-such-dir'),
    contentSecurityPolicy: buildContentSecurityPolicy(),
    log: () => {},
    dynamic: async (url, range) => {
      if (url.pathname === '/regions/alps.pmtiles') {
        return {
          status: range ? 206 : 200,
          headers: {
            'Content-Type': 'application/octet-stream',
            'Content-Range': 'bytes 0-3/10',
            'Content-Security-Policy': "script-src 'unsafe-eval'",
          },
          body: new Uint8Array([1, 2, 3, 4]),
        };
      }
      if (url.pathname === '/boom') throw new Error('secret detail');
      return null;
    },
  });

  it('passes the range header and keeps the app CSP over the service headers', async () => {
    const response = await dynamicHandler(
      new Request('app://fieldmap/regions/alps.pmtiles', { headers: { Range: 'bytes=0-3' } }),
    );
    expect(response.status).toBe(206);
    expect(response.headers.get('content-range')).toBe('bytes 0-3/10');
    // Opaque bytes (not tile or style content) are sandboxed on top of the app's own CSP.
    expect(response.headers.get('content-security-policy')).toBe(
      `${buildContentSecurityPolicy()}; sandbox`,
    );
    expect([...new Uint8Array(await response.arrayBuffer())]).toEqual([1, 2, 3, 4]);
  });

  it('falls through to files when the service declines, and hides service failures', async () => {
    expect((await dynamicHandler(new Request('app://fieldmap/index.html'))).status).toBe(404);
    const failed = await dynamicHandler(new Request('app://fieldmap/boom'));
    expect(failed.status).toBe(500);
    expect(await failed.text()).not.toContain('secret');
  });
});
