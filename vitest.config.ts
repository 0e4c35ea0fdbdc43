import { defineConfig } from 'vitest/config';
import { LongestFirst } from './test/support/longest-first';

// One config for every suite. Suites that need a browser start Debian's Chromium through
// playwright-core themselves; the keychain suite needs the Secret Service that scripts/test.sh
// starts with dbus-run-session.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src-*/**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
    maxWorkers: 2,
    // Longest files first (test/durations.json), so neither worker ends alone with a long one.
    sequence: { sequencer: LongestFirst },
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ['default'],
    // expect.poll waits for UI and sync round trips; 1 s (the default) is too tight on a loaded
    // 2-core CI machine. This is a deadline for a condition, not a speed assertion.
    expect: { poll: { timeout: 15_000 } },
  },
});
