// The one wait of the test tree, for something another part does on its own (an engine's timer,
// an event, a page's state): polls `check` and THROWS when it never holds, so a test cannot pass
// by timing out. Its default bound is the test's own (the lane's, test/support/lanes.ts): a
// loaded machine makes a test slower, never wrong.

/** The running lane's bound per test (vitest.config.ts sets it); 60 s outside a lane. */
export function testBoundMs(): number {
  const bound = Number(process.env.FIELDMAP_TEST_BOUND_MS);
  return Number.isFinite(bound) && bound > 0 ? bound : 60_000;
}

let startedAt: number | null = null;

/** Notes that a test or a hook starts now (test/support/lane-setup.ts calls it for each). */
export function markTestStart(): void {
  startedAt = Date.now();
}

/** What a test or hook's wait may last by default: all that is left of the test's own bound. */
const REPORT_MARGIN_MS = 3_000;
function defaultLimitMs(): number {
  const bound = testBoundMs();
  if (startedAt === null) return bound;
  const left = startedAt + bound - Date.now() - REPORT_MARGIN_MS;
  // Little or nothing left: an after-hook, timed from its own start, which was not noted.
  return left >= bound / 10 ? left : bound;
}

/**
 * Resolves once `check()` is true (or resolves true); rejects with "never reached: <what>" after
 * `limitMs`. By default that is just before the test's own bound runs out, so a wait that never
 * holds fails with its own name instead of vitest's bare "Test timed out". Give a shorter limit
 * only where the wait itself is the subject (a test of `until`), never to make a test fail sooner.
 */
export async function until(
  check: () => boolean | Promise<boolean>,
  what: string,
  limitMs = defaultLimitMs(),
): Promise<void> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`never reached: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
