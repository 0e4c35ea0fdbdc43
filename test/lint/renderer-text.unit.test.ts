// The app's own text lives in one module per feature (`text.ts` beside the feature's
// components), so a translator finds all of it and a component holds none. The checker is
// test/support/renderer-text.ts; its own cases first, so this test can fail.
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scriptText, svelteText } from '../support/renderer-text';

const root = join(import.meta.dirname, '..', '..');
const renderer = join(root, 'src-renderer', 'src');

/** Folders whose text has not moved to their text module yet. */
const NOT_YET: string[] = [];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(svelte|ts)$/.test(entry.name) && !/\.d\.ts$/.test(entry.name) ? [path] : [];
  });
}

describe('the checker', () => {
  it('finds words in markup, in what a rep reads or hears, and sentences in scripts', () => {
    const found = svelteText(
      [
        '<script lang="ts">',
        "  const done = 'Nothing changed.';",
        "  const key = 'fieldmap:distance-unit';",
        "  const kind = 'Feature';",
        '</script>',
        '<p class="fm-hint">Sync now</p>',
        '<button aria-label="Close the panel" title={open ? "Open it now" : t.close}>×</button>',
        '<input placeholder="Search customers" name="query" />',
        '<span>{`Queued ${n} changes`}</span>',
      ].join('\n'),
    ).map((f) => f.text);
    expect(found).toEqual([
      'Sync now',
      'aria-label="Close the panel"',
      'Open it now',
      'placeholder="Search customers"',
      'Queued {} changes',
      'Nothing changed.',
    ]);
  });

  it('leaves code alone: keys, classes, GeoJSON types, imports, types and symbols', () => {
    const source = [
      "import type { A } from './text';",
      "type Kind = 'Point' | 'Line string';",
      "const style = { 'text-font': ['Noto Sans Regular'] };",
      "const FONT = 'DejaVu Sans Book'; // a name, not text",
      "const geometry = { type: 'Point', coordinates: [0, 0] };",
      "const sep = ' · ';",
      'const line = `${n} of ${total}`;',
      'const shown = `Showing ${n} of ${total}`;',
    ].join('\n');
    expect(scriptText(source).map((f) => f.text)).toEqual([
      'Noto Sans Regular',
      'Showing {} of {}',
    ]);
    expect(svelteText('<p class="a b">{count} · {total}</p><kbd>/</kbd>')).toEqual([]);
  });
});

describe('renderer text', () => {
  const files = sourceFiles(renderer)
    .filter((file) => !file.endsWith(`${join('/', 'text.ts')}`))
    .filter((file) => !NOT_YET.some((dir) => relative(renderer, file).startsWith(`${dir}/`)));

  it.each(files.map((file) => [relative(root, file), file] as const))(
    '%s writes no text of its own',
    (_name, file) => {
      const source = readFileSync(file, 'utf8');
      const found = file.endsWith('.svelte') ? svelteText(source) : scriptText(source);
      expect(found.map((f) => `${f.line}: ${f.text}`)).toEqual([]);
    },
  );
});
