// One process per outbox: a lock file holding the owner's pid. Two app instances appending to
// the same journal would interleave records and break recovery, so the second one is refused.
import { link, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
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

async function holderOf(path: string): Promise<number | null> {
  try {
    const pid = Number((await readFile(path, 'utf8')).trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Creates the lock with our pid in one step (link of a written temp file): never half-written. */
async function tryCreate(path: string): Promise<boolean> {
  const temp = `${path}.${process.pid}.tmp`;
  await writeFile(temp, `${process.pid}\n`);
  try {
    await link(temp, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await rm(temp, { force: true });
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
export async function acquireOutboxLock(dir: string): Promise<OutboxLock> {
  const path = join(dir, LOCK_FILE);
  for (let attempt = 0; attempt < 3; attempt += 1) {
    if (await tryCreate(path)) {
      return {
        release: async () => {
          if ((await holderOf(path)) === process.pid) await rm(path, { force: true });
        },
      };
    }
    const holder = await holderOf(path);
    if (holder !== null && isAlive(holder)) {
      throw outboxInternal(
        `This account's outbox is already open in another Fieldmap process (pid ${holder}). Close it first.`,
        path,
      );
    }
    await rm(path, { force: true }); // stale: its owner died without releasing it
  }
  throw outboxInternal('Could not take the outbox lock.', path);
}
