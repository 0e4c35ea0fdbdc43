// Atomic file writes for the basemap's stores (region registry, tile cache): temp file, fsync,
// rename, fsync the directory, so a crash leaves the old or the new file, never a torn one.
// A random temp suffix lets several writes of one process run at once.
import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';

export async function writeFileAtomic(file: string, content: Uint8Array | string): Promise<void> {
  const dir = dirname(file);
  await mkdir(dir, { recursive: true });
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

/** The parsed JSON of a file; undefined when it is missing or not JSON (a store then starts empty). */
export async function readJsonOrUndefined(file: string): Promise<unknown> {
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

/** A plain HTTP-like answer the app:// protocol and the browser runner both turn into a response. */
export interface BasemapResponse {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array | null;
}

export function textResponse(status: number, text: string): BasemapResponse {
  return {
    status,
    headers: { 'Content-Type': 'text/plain; charset=utf-8' },
    body: new TextEncoder().encode(text),
  };
}
