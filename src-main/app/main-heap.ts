// Main's V8 heap grows by half its live size between full collections, not by V8's default of
// up to several times it. Main keeps a whole account's last pull and reads a large list in
// slices: with the default growth a pull's garbage stayed as RSS long after it. A smaller step
// costs main some more collections (--optimize-for-size, which also does this, cost several
// times the CPU of a pull). Set once, when main starts (Electron's main.ts, the browser
// runner's launch), before its services allocate.
import { setFlagsFromString } from 'node:v8';

export function favourMemoryInMain(): void {
  setFlagsFromString('--heap-growing-percent=50');
}

/**
 * Tells V8 main holds far less than its heap now (an account was closed: its last pull, prints
 * and outbox are garbage), through the one way Node and Electron offer without a flag at start:
 * the inspector protocol's HeapProfiler.collectGarbage, which V8 answers with its low-memory
 * collection (every generation, compacted, free pages given back). Without it V8 collects only
 * when main next allocates, so the next account's first sync started on the last one's heap.
 * Resolves once done; never rejects (a process without an inspector just keeps its heap).
 */
export async function collectAfterAccount(): Promise<void> {
  try {
    const { Session } = await import('node:inspector');
    const session = new Session();
    session.connect();
    await new Promise<void>((resolve) => {
      session.post('HeapProfiler.collectGarbage', () => resolve());
    });
    session.disconnect();
  } catch {
    // No inspector in this build: the heap is collected when V8 next decides to.
  }
}
