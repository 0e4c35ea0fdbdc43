// What this Node process holds after full collections, for tests of what code keeps alive.

import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * process.memoryUsage() after two full collections with a turn between them (a WeakRef read in
 * this job keeps its target until the job ends). Exposes V8's gc for the process on first use.
 */
export async function collectedMemory(): Promise<NodeJS.MemoryUsage> {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  gc();
  await new Promise((resolve) => setImmediate(resolve));
  gc();
  return process.memoryUsage();
}
