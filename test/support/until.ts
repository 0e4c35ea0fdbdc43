// Waiting in tests for something another part does on its own (an engine's timer, an event):
// polls `check` every 20 ms and THROWS when it never holds, so a test cannot pass by timing out.

/** Resolves once `check()` is true; rejects with "never reached: <what>" after `limitMs`. */
export async function until(
  check: () => boolean | Promise<boolean>,
  what: string,
  limitMs = 20_000,
): Promise<void> {
  const tries = Math.ceil(limitMs / 20);
  for (let i = 0; i < tries; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`never reached: ${what}`);
}
