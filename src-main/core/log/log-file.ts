// The log's file: appended asynchronously, rotated by size, bounded on disk and in memory.
// `append` never throws and never waits: lines queue in memory (at most maxPendingBytes, the rest
// are counted and dropped) and one write at a time drains them, so a slow or full disk costs
// main neither its event loop nor the process. A failed write loses that batch, counts it, and
// the next append tries again.
import { appendFile, mkdir, rename, stat } from 'node:fs/promises';
import { join } from 'node:path';

export interface LogFileOptions {
  dir: string;
  /** The current file is `<baseName>.log`, older ones `<baseName>.1.log`, `.2.log`... */
  baseName?: string;
  /** A file is rotated before an append would take it past this size. */
  maxFileBytes?: number;
  /** Files kept, the current one included. */
  files?: number;
  /** Lines waiting for the disk beyond this are dropped (and counted). */
  maxPendingBytes?: number;
  /** The line that says how many lines were lost, written before the next ones that are not. */
  droppedLine?: (count: number) => string;
}

export const LOG_FILE_BYTES = 1024 * 1024;
export const LOG_FILES = 3;

export class RotatingLogFile {
  readonly dir: string;
  readonly path: string;
  readonly #base: string;
  readonly #maxFileBytes: number;
  readonly #files: number;
  readonly #maxPending: number;
  readonly #droppedLine: (count: number) => string;
  #pending: string[] = [];
  #pendingBytes = 0;
  #dropped = 0;
  /** Size of the current file as last known; null: ask the disk. */
  #size: number | null = null;
  #drain: Promise<void> | null = null;
  /** Writes that failed since the start (a test and the About box can read it). */
  failures = 0;

  constructor(options: LogFileOptions) {
    this.dir = options.dir;
    this.#base = options.baseName ?? 'fieldmap';
    this.path = join(this.dir, `${this.#base}.log`);
    this.#maxFileBytes = options.maxFileBytes ?? LOG_FILE_BYTES;
    // At least one old file: rotation needs somewhere to put the full one.
    this.#files = Math.max(2, options.files ?? LOG_FILES);
    this.#maxPending = options.maxPendingBytes ?? 256 * 1024;
    this.#droppedLine = options.droppedLine ?? ((count) => `{"dropped":${count}}`);
  }

  /** Every file of the log, newest first (some may not exist yet). */
  paths(): string[] {
    return Array.from({ length: this.#files }, (_, i) => this.#fileAt(i));
  }

  /** Queues one line (a newline is added). */
  append(line: string): void {
    const text = `${line}\n`;
    if (this.#pendingBytes + text.length > this.#maxPending) {
      this.#dropped += 1;
      return;
    }
    this.#pending.push(text);
    this.#pendingBytes += text.length;
    this.#drain ??= this.#run().finally(() => {
      this.#drain = null;
    });
  }

  /** Resolves once every line queued so far has been written (or given up on). */
  async flush(): Promise<void> {
    while (this.#drain) await this.#drain;
  }

  async #run(): Promise<void> {
    while (this.#pending.length > 0) {
      const lines = this.#pending;
      this.#pending = [];
      this.#pendingBytes = 0;
      if (this.#dropped > 0) {
        lines.unshift(`${this.#droppedLine(this.#dropped)}\n`);
        this.#dropped = 0;
      }
      const bytes = Buffer.from(lines.join(''), 'utf8');
      try {
        await this.#write(bytes);
      } catch {
        this.failures += 1;
        this.#size = null;
        this.#dropped += lines.length;
      }
    }
  }

  async #write(bytes: Buffer): Promise<void> {
    if (this.#size === null) {
      await mkdir(this.dir, { recursive: true });
      this.#size = await stat(this.path).then(
        (s) => s.size,
        () => 0,
      );
    }
    if (this.#size > 0 && this.#size + bytes.length > this.#maxFileBytes) {
      await this.#rotate();
      this.#size = 0;
    }
    await appendFile(this.path, bytes, { mode: 0o600 });
    this.#size += bytes.length;
  }

  async #rotate(): Promise<void> {
    // The oldest is overwritten by the one before it, and so on down to the current file.
    for (let i = this.#files - 1; i >= 1; i--) {
      await rename(this.#fileAt(i - 1), this.#fileAt(i)).catch((error: unknown) => {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      });
    }
  }

  #fileAt(index: number): string {
    return index === 0 ? this.path : join(this.dir, `${this.#base}.${index}.log`);
  }
}
