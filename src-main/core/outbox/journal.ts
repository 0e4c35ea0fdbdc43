// The outbox's files: an append-only journal of checksummed lines and a snapshot replaced
// atomically on compaction. Records are opaque JSON values here; the outbox gives them meaning.
//
// Line format (journal and snapshot alike): `<crc32 hex8> <byte length> <json>\n`, where crc and
// length cover the JSON bytes. JSON.stringify never emits a raw newline, so a line is one record.
// A kill mid-append leaves at most one torn last line: recovery detects it (bad length, bad crc or
// no newline), drops it and truncates the file back to the last whole record before appending.
import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { nodeDurableFs, type DurableFs } from '../durable-fs';
import { outboxInternal } from './errors';

export const JOURNAL_FILE = 'outbox.journal';
export const SNAPSHOT_FILE = 'outbox.snapshot';
const SNAPSHOT_TEMP = 'outbox.snapshot.tmp';

const NEWLINE = 0x0a;

/** One record as a checksummed line. */
export function encodeLine(record: unknown): Buffer {
  const json = Buffer.from(JSON.stringify(record), 'utf8');
  const head = `${crc32(json).toString(16).padStart(8, '0')} ${json.length} `;
  return Buffer.concat([Buffer.from(head, 'ascii'), json, Buffer.from('\n', 'ascii')]);
}

/** The record of one line (without its newline), or undefined when the line is damaged. */
function decodeLine(line: Buffer): unknown {
  const firstSpace = line.indexOf(0x20);
  const secondSpace = firstSpace < 0 ? -1 : line.indexOf(0x20, firstSpace + 1);
  if (firstSpace !== 8 || secondSpace < 0) return undefined;
  const crc = Number.parseInt(line.subarray(0, 8).toString('ascii'), 16);
  const length = Number(line.subarray(9, secondSpace).toString('ascii'));
  const json = line.subarray(secondSpace + 1);
  if (!Number.isInteger(length) || json.length !== length || crc32(json) !== crc) return undefined;
  try {
    return JSON.parse(json.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

export interface DecodedJournal {
  records: unknown[];
  /** Bytes up to the end of the last whole record: the file is truncated to this. */
  goodLength: number;
  /** Bytes dropped after the last whole record (a torn append). */
  tornTailBytes: number;
  /** Damaged lines followed by whole ones: not a torn append but corruption; skipped. */
  corruptLines: number;
}

export function decodeJournal(buf: Buffer): DecodedJournal {
  const records: unknown[] = [];
  let goodLength = 0;
  let corruptLines = 0;
  let damagedSinceGood = 0;
  let start = 0;
  while (start < buf.length) {
    const end = buf.indexOf(NEWLINE, start);
    if (end < 0) break;
    const record = decodeLine(buf.subarray(start, end));
    if (record === undefined) {
      damagedSinceGood += 1;
    } else {
      records.push(record);
      goodLength = end + 1;
      corruptLines += damagedSinceGood;
      damagedSinceGood = 0;
    }
    start = end + 1;
  }
  return { records, goodLength, tornTailBytes: buf.length - goodLength, corruptLines };
}

export interface RecoveredFiles {
  /** The snapshot's record, or null when there is none yet. */
  snapshot: unknown;
  /** Journal records in append order (the caller skips those the snapshot already holds). */
  records: unknown[];
  tornTailBytes: number;
  corruptLines: number;
}

async function writeAll(handle: FileHandle, data: Buffer): Promise<void> {
  let offset = 0;
  while (offset < data.length) {
    const { bytesWritten } = await handle.write(data, offset, data.length - offset);
    offset += bytesWritten;
  }
}

export class Journal {
  /** Set when a failed append could not be rolled back: later appends would follow garbage. */
  private broken: Error | null = null;

  private constructor(
    private readonly dir: string,
    private readonly fs: DurableFs,
    private handle: FileHandle,
    private size: number,
  ) {}

  /** Opens (creating) the files under `dir`, recovers their records and cuts a torn tail. */
  static async open(
    dir: string,
    fs: DurableFs = nodeDurableFs,
  ): Promise<{ journal: Journal; recovered: RecoveredFiles }> {
    // Queued changes are the rep's only: folder 0700 (DurableFs.mkdir), files 0600.
    await fs.mkdir(dir);
    // A temp snapshot is a compaction that died before its rename: the journal still holds it all.
    await fs.remove(join(dir, SNAPSHOT_TEMP));

    let snapshot: unknown = null;
    const snapshotBuf = await fs.readIfExists(join(dir, SNAPSHOT_FILE));
    if (snapshotBuf) {
      const decoded = decodeJournal(snapshotBuf);
      if (decoded.records.length !== 1 || decoded.tornTailBytes !== 0) {
        // Written whole and renamed into place, so damage here is disk corruption, not a crash.
        throw outboxInternal(
          'The outbox snapshot file is damaged; the queued changes cannot be read safely.',
          join(dir, SNAPSHOT_FILE),
        );
      }
      snapshot = decoded.records[0];
      await fs.ops.chmod(join(dir, SNAPSHOT_FILE), 0o600);
    }

    const journalPath = join(dir, JOURNAL_FILE);
    const existed = (await fs.readIfExists(journalPath)) !== null;
    const handle = await fs.ops.open(journalPath, 'a+', 0o600);
    try {
      await handle.chmod(0o600); // a journal an older version created 0644
      if (!existed) await fs.syncDir(dir);
      const decoded = decodeJournal(await fs.ops.readFile(journalPath));
      if (decoded.tornTailBytes > 0) {
        await handle.truncate(decoded.goodLength);
        await handle.datasync();
      }
      const journal = new Journal(dir, fs, handle, decoded.goodLength);
      return {
        journal,
        recovered: {
          snapshot,
          records: decoded.records,
          tornTailBytes: decoded.tornTailBytes,
          corruptLines: decoded.corruptLines,
        },
      };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  /** Bytes in the journal since the last compaction. */
  get bytes(): number {
    return this.size;
  }

  /** Appends one record; resolves once it is on disk (fdatasync). */
  async append(record: unknown): Promise<void> {
    if (this.broken) {
      throw outboxInternal('The outbox journal could not be written.', this.broken.message);
    }
    const line = encodeLine(record);
    try {
      await writeAll(this.handle, line);
      await this.handle.datasync();
      this.size += line.length;
    } catch (error) {
      // Cut a partial line so the next append does not land after garbage.
      try {
        await this.handle.truncate(this.size);
        await this.handle.datasync();
      } catch {
        this.broken = error as Error;
      }
      throw error;
    }
  }

  /**
   * Replaces the snapshot by `record` atomically (temp file, fsync, rename, fsync dir where the
   * platform can), then empties the journal. A crash between the two leaves old journal records
   * that the caller must recognise as already in the snapshot (the outbox uses sequence
   * numbers). A failure before the rename leaves the snapshot and the journal as they were.
   */
  async compact(record: unknown): Promise<void> {
    const tempPath = join(this.dir, SNAPSHOT_TEMP);
    const temp = await this.fs.ops.open(tempPath, 'w', 0o600);
    try {
      await writeAll(temp, encodeLine(record));
      await temp.sync();
    } finally {
      await temp.close();
    }
    try {
      await this.fs.rename(tempPath, join(this.dir, SNAPSHOT_FILE));
    } catch (error) {
      await this.fs.remove(tempPath).catch(() => undefined);
      throw error;
    }
    await this.fs.syncDir(this.dir);
    await this.handle.truncate(0);
    await this.handle.datasync();
    this.size = 0;
  }

  async close(): Promise<void> {
    await this.handle.close();
  }
}
