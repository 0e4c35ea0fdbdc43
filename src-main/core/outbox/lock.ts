// One process per outbox: a lock file holding the owner's pid. Two app instances appending to
// the same journal would interleave records and break recovery, so the second one is refused.
import { join } from 'node:path';
import { nodeDurableFs, type DurableFs } from '../durable-fs';
import { outboxInternal } from './errors';

export const LOCK_FILE = 'outbox.lock';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function holderOf(fs: DurableFs, path: string): Promise<number | null> {
  const bytes = await fs.readIfExists(path);
  if (bytes === null) return null;
  const pid = Number(bytes.toString('utf8').trim());
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}

/** Creates the lock with our pid in one step (link of a written temp file): never half-written. */
async function tryCreate(fs: DurableFs, path: string): Promise<boolean> {
  const temp = `${path}.${process.pid}.tmp`;
  const handle = await fs.ops.open(temp, 'w', 0o600);
  try {
    await handle.writeFile(`${process.pid}\n`);
  } finally {
    await handle.close();
  }
  try {
    await fs.ops.link(temp, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await fs.remove(temp);
  }
}

export interface OutboxLock {
  release(): Promise<void>;
}

/**
 * Takes the lock of the outbox in `dir`, taking over a stale one left by a dead process.
 * Known limit: two processes taking over the same stale lock at the same instant may both win;
 * the app's single-instance guard makes that moot.
 */
export async function acquireOutboxLock(
  dir: string,
  fs: DurableFs = nodeDurableFs,
): Promise<OutboxLock> {
  const path = join(dir, LOCK_FILE);
  for (let attempt = 0; attempt < 3; attempt += 1) {
    if (await tryCreate(fs, path)) {
      return {
        release: async () => {
          if ((await holderOf(fs, path)) === process.pid) await fs.remove(path);
        },
      };
    }
    const holder = await holderOf(fs, path);
    if (holder !== null && isAlive(holder)) {
      throw outboxInternal(
        `This account's outbox is already open in another Fieldmap process (pid ${holder}). Close it first.`,
        path,
      );
    }
    await fs.remove(path); // stale: its owner died without releasing it
  }
  throw outboxInternal('Could not take the outbox lock.', path);
}
