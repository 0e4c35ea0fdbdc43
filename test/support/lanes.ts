// The three test lanes, decided by the file name alone, so a new file falls into its lane
// without editing a list:
//   *.unit.test.ts         Node only, in this process: src-shared's logic, main's core against
//                          the reference service in process (loopback), temp files. No build, no
//                          browser, no keychain, no child process; seconds per file.
//   *.integration.test.ts  the real keychain (D-Bus Secret Service), child processes (the
//                          service's CLI, crashes mid-write), worker sandboxes driven to their
//                          heap and size limits (hostile files), long real-time runs.
//   *.e2e.test.ts          Chromium through playwright-core, or the built app (out/).
// A test file with no lane, or with two, fails test/lint/lanes.unit.test.ts.
export const LANES = ['unit', 'integration', 'e2e'] as const;
export type Lane = (typeof LANES)[number];

/** Where vitest looks for test files at all (every one must be in exactly one lane). */
export const TEST_FILES = ['test/**/*.test.ts', 'src-*/**/*.test.ts'];

/** The files of one lane, as vitest include globs. */
export const laneGlobs = (lane: Lane): string[] =>
  TEST_FILES.map((g) => g.replace('*.test.ts', `*.${lane}.test.ts`));

/** The lanes a test file's name puts it in: one, or none or two (both refused). */
export function lanesOf(file: string): Lane[] {
  const parts = (file.split('/').at(-1) ?? '').split('.');
  return LANES.filter((lane) => parts.slice(1, -2).includes(lane));
}

/**
 * One bound per test in each lane, and every wait inside a test (expect.poll, until, Playwright's
 * actions) defaults to the same bound: a wait never gives up before its test does. The bounds
 * catch hangs; they are generous so that a loaded machine (scripts/cpu-load.mjs) only runs slower.
 */
export const LANE_BOUND_MS: Record<Lane, number> = {
  unit: 60_000,
  integration: 600_000,
  e2e: 600_000,
};
