// Vitest's file order for `npm test`: the longest files first, from test/durations.json (seconds
// per file, measured on a full run: `node scripts/test-durations.mjs` after `npm test`). The two
// workers take files in this order, so the run ends with short files on both instead of one
// worker alone with a long one. Vitest's own order needs its results cache, which a fresh clone
// (CI) lacks; it then runs larger files first, and the field-day suites, whose test files are
// a few lines that import their suites, ran last: ~100 s of one worker alone, of ~830 s.
// A file not in the list runs first (as Vitest runs unknown files first): a new file is
// likelier to be slow than one known to be short.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const DURATIONS = new URL('../durations.json', import.meta.url);

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const base = await super.sort(files);
    let known: Record<string, number> = {};
    try {
      known = JSON.parse(readFileSync(DURATIONS, 'utf8')) as Record<string, number>;
    } catch {
      return base; // no list: Vitest's own order
    }
    const root = this.ctx.config.root;
    const seconds = (file: TestSpecification) =>
      known[relative(root, file.moduleId).split('\\').join('/')] ?? Infinity;
    // Array.prototype.sort is stable: ties keep Vitest's order.
    return base.sort((a, b) => {
      const [sa, sb] = [seconds(a), seconds(b)];
      return sa === sb ? 0 : sb > sa ? 1 : -1;
    });
  }
}
