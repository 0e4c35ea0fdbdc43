// Durable small-file writes for every store of main (accounts index, imports, demo state,
// sync ledger, conflict log, basemap registry and tile cache): write a temp file, fsync it,
// rename it over the old one, fsync the directory, so a crash leaves either the old or the new
// file, never a torn one. A random temp suffix lets several writes of one process run at once.
// (src-service keeps its own: the reference service must not import src-main.)
import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';

export async function writeFileAtomic(file: string, content: Uint8Array | string): Promise<void> {
  const dir = dirname(file);
  // The rep's data is the rep's only: folders 0700, files 0600, whatever the umask.
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  const handle = await open(tmp, 'w', 0o600);
  try {
    await handle.writeFile(content);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(tmp, file);
  } catch (error) {
    await rm(tmp, { force: true });
    throw error;
  }
  const dirHandle = await open(dir, 'r');
  try {
    await dirHandle.sync();
  } finally {
    await dirHandle.close();
  }
}

/** Writes `value` as JSON, atomically and durably. */
export function writeJsonAtomic(file: string, value: unknown): Promise<void> {
  return writeFileAtomic(file, JSON.stringify(value));
}

/** The parsed JSON of a file; undefined when it is missing or not JSON (a store then starts empty). */
export async function readJsonFile(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The parsed JSON of a file; undefined when it is missing, but damaged JSON throws: the sync
 * engine's state (ledger, conflicts) must not silently start empty, or a create could be resent.
 */
export async function readJsonStrict(file: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as unknown;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
