import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';

const root = import.meta.dirname;

export default defineConfig({
  main: {
    // pmtiles brings fflate, whose Node build declares its own top-level `require`; in the plan
    // worker's separate bundle (src-main/shell/main.ts, ?modulePath) that clashes with the CommonJS
    // shim electron-vite adds. Main never uses fflate (node:zlib unpacks), so its plain build does.
    resolve: { alias: { fflate: resolve(root, 'node_modules/fflate/esm/browser.js') } },
    build: {
      outDir: 'out/main',
      // keytar is a native addon and electron is the runtime: both stay outside the bundle;
      // electron-updater is loaded from the packaged node_modules (a runtime dependency).
      externalizeDeps: { include: ['keytar', 'electron', 'electron-updater'] },
      rollupOptions: {
        input: {
          index: resolve(root, 'src-main/shell/main.ts'),
          // Untrusted spreadsheets are read in a worker thread (core/untrusted/parse-worker.ts).
          'xlsx-worker': resolve(root, 'src-main/core/xlsx/xlsx-worker.ts'),
          // And so are the styles and TileJSON the online map names (core/basemap/service.ts).
          'style-worker': resolve(root, 'src-main/core/basemap/style-worker.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      // A sandboxed preload must be one CommonJS file with nothing to require but electron.
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve(root, 'src-preload/preload.ts') },
        external: ['electron'],
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(root, 'src-renderer'),
    plugins: [svelte()],
    build: {
      outDir: resolve(root, 'out/renderer'),
      rollupOptions: { input: { index: resolve(root, 'src-renderer/index.html') } },
    },
  },
});
