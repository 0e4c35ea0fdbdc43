// The renderer's workers are bundled without Svelte's compiler, so a module with runes
// (`*.svelte.ts`, e.g. the rep's unit that the formatter and every text.ts read) breaks a worker
// at run time: the plan worker failed every plan with "$state is not defined" when its cancel
// message moved to features/plan/text.ts. This walks each worker's imports and refuses any.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..', '..');
const renderer = join(root, 'src-renderer', 'src');

function workers(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return workers(path);
    return entry.name.endsWith('.worker.ts') ? [path] : [];
  });
}

/** Relative modules a file loads at run time (type-only imports are erased). */
function runtimeImports(file: string): string[] {
  const code = readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const m of code.matchAll(/^\s*(?:import|export)\s+(?!type\b)[^;]*?from\s+'(\.[^']+)'/gms))
    found.push(m[1]!);
  for (const m of code.matchAll(/^\s*import\s+'(\.[^']+)'/gm)) found.push(m[1]!);
  for (const m of code.matchAll(/import\(\s*'(\.[^']+)'\s*\)/g)) found.push(m[1]!);
  return found.flatMap((spec) => {
    const base = resolve(dirname(file), spec);
    const hit = [base, `${base}.ts`, join(base, 'index.ts')].find(
      (p) => existsSync(p) && !p.endsWith('/') && /\.(ts|svelte|js)$/.test(p),
    );
    return hit ? [hit] : [];
  });
}

/** The chain of imports from the worker to the first module with runes, or null. */
function runesReached(entry: string): string[] | null {
  const seen = new Set<string>([entry]);
  const queue: string[][] = [[entry]];
  while (queue.length > 0) {
    const chain = queue.shift()!;
    for (const next of runtimeImports(chain.at(-1)!)) {
      if (seen.has(next)) continue;
      seen.add(next);
      const path = [...chain, next];
      if (/\.svelte(\.ts)?$/.test(next)) return path.map((p) => relative(root, p));
      queue.push(path);
    }
  }
  return null;
}

describe('renderer workers', () => {
  const entries = workers(renderer);

  it('there are workers to check', () => {
    expect(entries.map((p) => relative(renderer, p))).toContain(
      'features/plan/week-plan.worker.ts',
    );
  });

  it.each(entries.map((p) => [relative(renderer, p), p]))(
    '%s reaches no module with runes',
    (_, p) => {
      expect(runesReached(p)).toBeNull();
    },
  );
});
