// Builds browser bundles for the renderer tests with Vite: the app itself (src-renderer, as
// electron-vite builds it) or the test pages under test/renderer/pages.
import { resolve } from 'node:path';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { build } from 'vite';

export const REPO_ROOT = resolve(import.meta.dirname, '../../..');

/** Builds `root`'s html entries into `outDir`. */
export async function buildBundle(
  root: string,
  outDir: string,
  entries: Record<string, string>,
): Promise<void> {
  await build({
    root,
    configFile: false,
    logLevel: 'error',
    plugins: [svelte()],
    build: {
      outDir,
      emptyOutDir: true,
      minify: false,
      reportCompressedSize: false,
      rollupOptions: {
        input: Object.fromEntries(Object.entries(entries).map(([k, v]) => [k, resolve(root, v)])),
      },
    },
  });
}

/** Builds the app's renderer (src-renderer/index.html) into `outDir`. */
export async function buildRenderer(outDir: string): Promise<void> {
  await buildBundle(resolve(REPO_ROOT, 'src-renderer'), outDir, { index: 'index.html' });
}

/** Builds the test pages (test/renderer/pages: cache.html, app.html) into `outDir`. */
export async function buildTestPages(outDir: string): Promise<void> {
  await buildBundle(resolve(REPO_ROOT, 'test/renderer/pages'), outDir, {
    cache: 'cache.html',
    app: 'app.html',
  });
}
