// Bundles page-entry.ts (and the real bridge from src-preload/bridge.ts) into one classic
// script for context.addInitScript, with vite, once per runner process.
import { resolve } from 'node:path';
import { build } from 'vite';

let cached: Promise<string> | null = null;

export function pageInitScript(): Promise<string> {
  cached ??= bundle();
  return cached;
}

async function bundle(): Promise<string> {
  const entry = resolve(import.meta.dirname, 'page-entry.ts');
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
