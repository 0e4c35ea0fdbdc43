// Builds the map fixture pages (the real MapView, and a bare MapLibre page) with Vite into a
// temp dir, serves them on 127.0.0.1, and starts Debian's Chromium. Used by the map tests
// and by scripts/bench/renderer-map.ts.
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize, resolve } from 'node:path';
import { build } from 'vite';

const fixtures = import.meta.dirname;

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

export type MapPages = { url: string; close(): Promise<void> };

/** Bundles index.html (MapView harness) and bare.html, then serves them; close() removes everything. */
export async function serveMapPages(): Promise<MapPages> {
  const outDir = await mkdtemp(join(tmpdir(), 'fieldmap-map-pages-'));
  await build({
    root: fixtures,
    base: './',
    configFile: false,
    logLevel: 'error',
    plugins: [svelte()],
    // The app's public/ (basemap layers, glyphs) next to the pages, as the app serves it.
    publicDir: resolve(fixtures, '../../../src-renderer/public'),
    build: {
      outDir,
      emptyOutDir: true,
      reportCompressedSize: false,
      rollupOptions: {
        input: { index: join(fixtures, 'index.html'), bare: join(fixtures, 'bare.html') },
      },
    },
  });
  const served = await serveDirectory(outDir);
  return {
    url: served.url,
    async close() {
      await served.close();
      await rm(outDir, { recursive: true, force: true });
    },
  };
}

/**
 * Serves `dir` over HTTP on 127.0.0.1. A real server, not page routing: Chromium fetches a
 * dedicated worker's script (MapLibre's) outside Playwright's request routing.
 */
export async function serveDirectory(dir: string): Promise<MapPages> {
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname));
    const file = resolve(dir, `.${path === '/' ? '/index.html' : path}`);
    if (!file.startsWith(dir)) {
      res.writeHead(403).end();
      return;
    }
    readFile(file).then(
      (body) =>
        res
          .writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' })
          .end(body),
      () => res.writeHead(404).end(),
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, close: () => closeServer(server) };
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((r) => server.close(() => r()));
}
