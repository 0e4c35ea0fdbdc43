// Serves the built renderer (out/renderer) on a fixed origin through Playwright's request
// routing: a fixed origin keeps IndexedDB across runs, and nothing listens on a port.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import type { AppRequestHandler } from '../../src-main/shell/app-protocol';
import { buildContentSecurityPolicy } from '../../src-main/shell/csp';

/** The app's origin in the runner (Electron serves it as app://fieldmap). `*.localhost` is a secure context. */
export const RUNNER_ORIGIN = 'http://fieldmap.localhost';

export const REPO_ROOT = resolve(import.meta.dirname, '../..');
export const RENDERER_DIR = join(REPO_ROOT, 'out/renderer');

/**
 * The shell's policy (no eval, no inline or remote scripts), with the runner's data socket
 * (data-socket.ts) as the one extra place the page may connect to.
 */
export function rendererCsp(dataSocketOrigin: string): string {
  return buildContentSecurityPolicy({ connectSources: [dataSocketOrigin] });
}

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.pbf': 'application/x-protobuf',
  '.pmtiles': 'application/octet-stream',
  '.wasm': 'application/wasm',
};

/** Builds the renderer when out/renderer is missing; throws with the build's output if it fails. */
export function ensureRendererBuilt(log: (line: string) => void): void {
  if (existsSync(join(RENDERER_DIR, 'index.html'))) return;
  log('out/renderer is missing: running `npx electron-vite build` first...');
  const result = spawnSync('npx', ['electron-vite', 'build'], { cwd: REPO_ROOT, encoding: 'utf8' });
  if (result.status !== 0 || !existsSync(join(RENDERER_DIR, 'index.html'))) {
    throw new Error(
      `The renderer is not built and \`npx electron-vite build\` failed (exit ${result.status}).\n` +
        `${result.stdout ?? ''}${result.stderr ?? ''}\nFix the build, then run the runner again.`,
    );
  }
}

/**
 * Answers every request of RUNNER_ORIGIN from out/renderer (`scripts`: extra scripts by path),
 * with `csp` on documents.
 */
export async function serveRenderer(
  context: BrowserContext,
  csp: string,
  scripts: Record<string, string>,
  dynamic?: AppRequestHandler,
): Promise<void> {
  await context.route(`${RUNNER_ORIGIN}/**`, async (route) => {
    const url = new URL(route.request().url());
    // The basemap's regions/ range reads and tiles? cache, as the app:// protocol serves them.
    const answer = await dynamic?.(url, route.request().headers()['range'] ?? null);
    if (answer) {
      return route.fulfill({
        status: answer.status,
        headers: answer.headers,
        body: answer.body ? Buffer.from(answer.body) : '',
      });
    }
    const script = Object.hasOwn(scripts, url.pathname) ? scripts[url.pathname] : undefined;
    if (script !== undefined) {
      const type = MIME['.js']!;
      return route.fulfill({ status: 200, headers: { 'content-type': type }, body: script });
    }
    const relative = decodeURIComponent(url.pathname === '/' ? '/index.html' : url.pathname);
    const file = normalize(join(RENDERER_DIR, relative));
    if (!file.startsWith(RENDERER_DIR + sep))
      return route.fulfill({ status: 403, body: 'forbidden' });
    let body: Buffer;
    try {
      body = await readFile(file);
    } catch {
      return route.fulfill({ status: 404, body: 'not found' });
    }
    const contentType = MIME[extname(file)] ?? 'application/octet-stream';
    const headers: Record<string, string> = {
      'content-type': contentType,
      'cache-control': 'no-cache',
    };
    if (contentType.startsWith('text/html')) headers['content-security-policy'] = csp;
    return route.fulfill({ status: 200, headers, body });
  });
}
