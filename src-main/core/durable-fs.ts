// The one seam for main's files: every store (outbox journal, sync state, accounts index,
// imports, demo state, basemap registry, tile cache, region downloads) writes through a
// DurableFs, built with the platform's rules:
// - a replaced file is written to a temp file, fsync'd and renamed over the old one, so a crash
//   leaves the old or the new file, never a torn one;
// - POSIX: the directory is fsync'd after a rename, or the rename may not survive a power cut;
//   Windows: a directory cannot be fsync'd (FlushFileBuffers refuses a directory handle:
//   EPERM, nodejs/node#3879), and NTFS journals the rename (MoveFileEx), so the rename is the
//   commit there;
// - Windows: an antivirus or indexer that opened a new file makes a rename or delete of it fail
//   (EPERM, EBUSY, EACCES) until it lets go, so those are retried with backoff (graceful-fs does
//   the same), and a failure that outlasts the retries is a DurableWriteError naming the file.
// Tests inject the file operations (a player of Windows' behaviour) and the sleep.
import { randomBytes } from 'node:crypto';
import * as fsp from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { TaxonomyError } from '../../src-shared/errors';

/** The file operations main uses, shaped as node:fs/promises (a test wraps them). */
export interface FsOps {
  open(path: string, flags: string, mode?: number): Promise<FileHandle>;
  rename(from: string, to: string): Promise<void>;
  rm(path: string, options: { recursive?: boolean; force?: boolean }): Promise<void>;
  mkdir(path: string, options: { recursive: true; mode?: number }): Promise<unknown>;
  readFile(path: string): Promise<Buffer>;
  readdir(path: string): Promise<string[]>;
  stat(path: string): Promise<{ size: number; isDirectory(): boolean }>;
  chmod(path: string, mode: number): Promise<void>;
  link(existing: string, path: string): Promise<void>;
  copyFile(from: string, to: string): Promise<void>;
}

export const nodeFsOps: FsOps = {
  open: (path, flags, mode) => fsp.open(path, flags, mode),
  rename: (from, to) => fsp.rename(from, to),
  rm: (path, options) => fsp.rm(path, options),
  mkdir: (path, options) => fsp.mkdir(path, options),
  readFile: (path) => fsp.readFile(path),
  readdir: (path) => fsp.readdir(path),
  stat: (path) => fsp.stat(path),
  chmod: (path, mode) => fsp.chmod(path, mode),
  link: (existing, path) => fsp.link(existing, path),
  copyFile: (from, to) => fsp.copyFile(from, to),
};

/** A write that failed for good: names the file and why, in the app's error taxonomy. */
export class DurableWriteError extends TaxonomyError {
  override readonly name = 'DurableWriteError';
  /** The OS error code (EBUSY, ENOSPC...), so callers may still tell one from another. */
  readonly code: string;
  readonly file: string;

  constructor(file: string, action: string, cause: unknown, attempts: number) {
    const code = codeOf(cause) ?? 'UNKNOWN';
    super({
      kind: 'Internal',
      message: `Could not save ${basename(file)} on this laptop: ${reasonOf(code)}.`,
      detail: `${action} ${file}: ${code}${attempts > 1 ? ` after ${attempts} attempts` : ''}`,
    });
    this.code = code;
    this.file = file;
  }
}

function codeOf(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

function reasonOf(code: string): string {
  switch (code) {
    case 'EPERM':
    case 'EACCES':
    case 'EBUSY':
      return 'another program (an antivirus or a search indexer?) keeps it locked';
    case 'ENOSPC':
      return 'the disk is full';
    case 'EROFS':
      return 'the disk is read-only';
    case 'ENAMETOOLONG':
      return 'its path is too long';
    default:
      return `the system refused (${code})`;
  }
}

/** Waits between retries: ~7 s in all, so a scanner's hold passes and a lasting one is told. */
export const RETRY_DELAYS_MS: readonly number[] = [
  10, 20, 50, 100, 200, 400, 800, 1600, 2000, 2000,
];

/** Windows' transient failures of a rename or delete: a handle someone else holds on the file. */
const WINDOWS_TRANSIENT = new Set(['EPERM', 'EBUSY', 'EACCES', 'ENOTEMPTY']);

export interface DurableFsOptions {
  ops?: FsOps;
  /** Whose rules apply (default: this process's platform). */
  platform?: NodeJS.Platform;
  sleep?: (ms: number) => Promise<void>;
  retryDelaysMs?: readonly number[];
}

export class DurableFs {
  readonly ops: FsOps;
  readonly platform: NodeJS.Platform;
  readonly #sleep: (ms: number) => Promise<void>;
  readonly #delays: readonly number[];
  readonly #transient: ReadonlySet<string>;

  constructor(options: DurableFsOptions = {}) {
    this.ops = options.ops ?? nodeFsOps;
    this.platform = options.platform ?? process.platform;
    this.#sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.#delays = options.retryDelaysMs ?? RETRY_DELAYS_MS;
    this.#transient = this.platform === 'win32' ? WINDOWS_TRANSIENT : new Set();
  }

  /** False on Windows: a directory cannot be fsync'd there, and the rename is the commit. */
  get syncsDirectories(): boolean {
    return this.platform !== 'win32';
  }

  /** Creates `dir` and its parents; the rep's data is the rep's only: 0700, whatever the umask. */
  async mkdir(dir: string): Promise<void> {
    await this.ops.mkdir(dir, { recursive: true, mode: 0o700 });
  }

  /** Makes the entries of `dir` (a rename, a new file) durable, where the platform can. */
  async syncDir(dir: string): Promise<void> {
    if (!this.syncsDirectories) return;
    const handle = await this.ops.open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  }

  /** Renames `from` over `to` (replacing it), retried while the platform says it is held. */
  async rename(from: string, to: string): Promise<void> {
    await this.#retried(to, 'rename', () => this.ops.rename(from, to));
  }

  /** Removes a file (or a folder, recursive), retried while held; a missing one is fine. */
  async remove(path: string, options: { recursive?: boolean } = {}): Promise<void> {
    await this.#retried(path, 'remove', () =>
      this.ops.rm(path, { force: true, recursive: options.recursive ?? false }),
    );
  }

  /** Replaces `file` by `content`: temp file, fsync, rename, directory fsync where possible. */
  async writeFileAtomic(file: string, content: Uint8Array | string): Promise<void> {
    const dir = dirname(file);
    // A random suffix lets several writes of one process run at once.
    const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await this.mkdir(dir);
      const handle = await this.ops.open(tmp, 'w', 0o600);
      try {
        await handle.writeFile(content);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await this.rename(tmp, file);
    } catch (error) {
      await this.remove(tmp).catch(() => undefined);
      throw asWriteError(file, 'write', error);
    }
    await this.syncDir(dir);
  }

  /** Writes `value` as JSON, atomically and durably. */
  writeJson(file: string, value: unknown): Promise<void> {
    return this.writeFileAtomic(file, JSON.stringify(value));
  }

  /** The file's bytes, or null when it is missing. */
  async readIfExists(file: string): Promise<Buffer | null> {
    try {
      return await this.ops.readFile(file);
    } catch (error) {
      if (codeOf(error) === 'ENOENT') return null;
      throw error;
    }
  }

  /** The parsed JSON of a file; undefined when missing or not JSON (a store then starts empty). */
  async readJson(file: string): Promise<unknown> {
    const bytes = await this.readIfExists(file);
    if (bytes === null) return undefined;
    try {
      return JSON.parse(bytes.toString('utf8')) as unknown;
    } catch {
      return undefined;
    }
  }

  /**
   * The parsed JSON of a file; undefined when it is missing, but damaged JSON throws: the sync
   * engine's state (ledger, conflicts) must not silently start empty, or a create could be resent.
   */
  async readJsonStrict(file: string): Promise<unknown> {
    const bytes = await this.readIfExists(file);
    return bytes === null ? undefined : (JSON.parse(bytes.toString('utf8')) as unknown);
  }

  async #retried(file: string, action: string, run: () => Promise<void>): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await run();
      } catch (error) {
        const delay = this.#delays[attempt - 1];
        const code = codeOf(error);
        if (delay === undefined || code === undefined || !this.#transient.has(code)) {
          throw asWriteError(file, action, error, attempt);
        }
        await this.#sleep(delay);
      }
    }
  }
}

function asWriteError(file: string, action: string, error: unknown, attempts = 1): Error {
  if (error instanceof DurableWriteError) return error;
  return new DurableWriteError(file, action, error, attempts);
}

/** The real file system with this platform's rules. */
export const nodeDurableFs = new DurableFs();
