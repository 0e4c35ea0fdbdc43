// Bundles page-entry.ts (and the real bridge from src-preload/bridge.ts) into one classic
// script for context.addInitScript, with vite, once per runner process. Vite is imported only to
// bundle: it is most of a runner's memory that Electron's main never holds (its preload is built
// ahead), and main in a child process gets the script from its parent (child-process.ts).
import { resolve } from 'node:path';

let cached: Promise<string> | null = null;

export function pageInitScript(): Promise<string> {
  cached ??= bundle();
  return cached;
}

async function bundle(): Promise<string> {
  const entry = resolve(import.meta.dirname, 'page-entry.ts');
  const { build } = await import('vite');
  const result = await build({
    configFile: false,
    logLevel: 'warn',
    build: {
      write: false,
      minify: false,
      emptyOutDir: false,
      lib: { entry, formats: ['iife'], name: 'fieldmapRunnerBridge' },
    },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as Array<{
    output: Array<{ type: string; code?: string }>;
  }>;
  const chunk = outputs.flatMap((o) => o.output).find((o) => o.type === 'chunk');
  if (!chunk?.code) throw new Error('bundling the runner bridge produced no script');
  return chunk.code;
}
