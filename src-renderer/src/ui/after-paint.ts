// Runs work in a task after the next painted frame, so what the rep just changed paints first.
// A hidden window may never paint (no animation frames): a timer runs the work then instead.

/** Longest wait for a frame before the work runs anyway (ms). */
const FALLBACK_MS = 250;

/** Schedules `run` once, after the next frame; returns a cancel. */
export function afterPaint(run: () => void): () => void {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    cancelAnimationFrame(frame);
    clearTimeout(fallback);
    clearTimeout(task);
    run();
  };
  let task: ReturnType<typeof setTimeout> | undefined;
  const frame = requestAnimationFrame(() => (task = setTimeout(once, 0)));
  const fallback = setTimeout(once, FALLBACK_MS);
  return () => {
    done = true;
    cancelAnimationFrame(frame);
    clearTimeout(fallback);
    clearTimeout(task);
  };
}
