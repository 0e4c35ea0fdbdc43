import { fileURLToPath } from 'node:url';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'vitest/config';
import { LongestFirst } from './test/support/longest-first';
import { LANE_BOUND_MS, laneGlobs, type Lane } from './test/support/lanes';

const guard = (name: string) =>
  fileURLToPath(new URL(`./test/support/lane-guard/${name}.ts`, import.meta.url));

// One project per lane (test/support/lanes.ts): `npm run test:unit` etc. run one, `npm test` all
// three in one run. Each lane's bound is its tests' timeout and the default of every wait inside
// them (expect.poll here; until and Playwright read FIELDMAP_TEST_BOUND_MS).
interface LaneExtra {
  alias?: Record<string, string>;
  pool?: 'threads' | 'forks';
  isolate?: boolean;
}
const lane = (name: Lane, extra: LaneExtra = {}) => ({
  extends: true as const,
  ...(extra.alias ? { resolve: { alias: extra.alias } } : {}),
  test: {
    name,
    ...(extra.pool ? { pool: extra.pool } : {}),
    ...(extra.isolate !== undefined ? { isolate: extra.isolate } : {}),
    include: laneGlobs(name),
    setupFiles: [fileURLToPath(new URL('./test/support/lane-setup.ts', import.meta.url))],
    testTimeout: LANE_BOUND_MS[name],
    hookTimeout: LANE_BOUND_MS[name],
    expect: { poll: { timeout: LANE_BOUND_MS[name], interval: 50 } },
    env: { FIELDMAP_TEST_LANE: name, FIELDMAP_TEST_BOUND_MS: String(LANE_BOUND_MS[name]) },
  },
});

export default defineConfig({
  // Renderer modules with runes (ui/units.svelte.ts, read by ui/format.ts) compile as the app's do.
  plugins: [svelte()],
  test: {
    environment: 'node',
    pool: 'forks',
    maxWorkers: 2,
    // Longest files first (test/durations.json), so neither worker ends alone with a long one.
    sequence: { sequencer: LongestFirst },
    reporters: ['default'],
    projects: [
      // The unit lane has no keychain and no browser: a file that reaches for either fails. Its
      // files share worker threads and their module cache (a third of the CPU of a fork per
      // file): a unit test leaves no global behind (spies restored, no process-wide state).
      lane('unit', {
        alias: { keytar: guard('no-keytar'), 'playwright-core': guard('no-browser') },
        pool: 'threads',
        isolate: false,
      }),
      lane('integration'),
      lane('e2e'),
    ],
  },
});
