// Runs a planned region download in its own folder (<dataDir>/region-downloads/<id>/):
//   plan.json   the plan (region-plan.ts), written once, atomically
//   region.part the output archive: its head (header, directories, metadata) written first,
//               then each fetched range's tiles written at their final place
//   journal     one line per range whose tiles are written and synced
// A kill at any instant loses at most the ranges in flight (at most `concurrency`, one batch):
// the journal only names ranges already on disk. The finished file is checked for its planned
// size and handed over for an atomic rename into the regions folder.
import { statfs, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import * as v from 'valibot';
import { nodeDurableFs, type DurableFs } from '../durable-fs';
import { StoredPlanSchema, type StoredPlan } from './plan-schema';
import { HEADER_BYTES } from './pmtiles-format';
import type { DownloadPlan } from './region-plan';
import { RegionDownloadError, type RangeReader } from './region-source';

export interface DownloadProgress {
  doneBytes: number;
  totalBytes: number;
  doneRanges: number;
  ranges: number;
}

export type FreeSpace = (dir: string) => Promise<number>;

export const systemFreeSpace: FreeSpace = async (dir) => {
  const s = await statfs(dir);
  return s.bavail * s.bsize;
};

/** Room kept free beside the region, for the registry and everything else. */
const DISK_MARGIN_BYTES = 64 * 1024 * 1024;

const planFile = (dir: string) => join(dir, 'plan.json');
export const partFile = (dir: string) => join(dir, 'region.part');
const journalFile = (dir: string) => join(dir, 'journal');

/**
 * The plan of an interrupted download in `dir`, or null when there is none, or it is torn or
 * does not pass the strict schema (plan-schema.ts).
 */
export async function readPlan(
  dir: string,
  fs: DurableFs = nodeDurableFs,
): Promise<StoredPlan | null> {
  const parsed = v.safeParse(StoredPlanSchema, await fs.readJson(planFile(dir)));
  return parsed.success ? parsed.output : null;
}

/** Checks the disk, then lays down the part file's head and the plan (the plan last). */
export async function prepareDownload(
  dir: string,
  plan: DownloadPlan,
  freeSpace: FreeSpace = systemFreeSpace,
  fs: DurableFs = nodeDurableFs,
): Promise<void> {
  await fs.mkdir(dir);
  const free = await freeSpace(dir);
  if (free < plan.totalBytes + DISK_MARGIN_BYTES)
    throw new RegionDownloadError(
      'disk-full',
      `Not enough free disk space: the area needs ${mb(plan.totalBytes + DISK_MARGIN_BYTES)} MB and ${mb(free)} MB are free.`,
    );
  const handle = await fs.ops.open(partFile(dir), 'w', 0o600);
  try {
    await writeAll(handle, Buffer.from(plan.head, 'base64'), 0);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await (await fs.ops.open(journalFile(dir), 'w', 0o600)).close();
  await fs.writeJson(planFile(dir), plan);
}

const mb = (bytes: number) => Math.ceil(bytes / 1024 ** 2);

async function writeAll(handle: FileHandle, bytes: Uint8Array, position: number): Promise<void> {
  try {
    let written = 0;
    while (written < bytes.length) {
      const { bytesWritten } = await handle.write(
        bytes,
        written,
        bytes.length - written,
        position + written,
      );
      written += bytesWritten;
    }
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOSPC')
      throw new RegionDownloadError('disk-full', 'The disk is full; free some space and retry.');
    throw error;
  }
}

async function doneRanges(fs: DurableFs, dir: string, ranges: number): Promise<Set<number>> {
  const text = await fs.ops
    .readFile(journalFile(dir))
    .then((bytes) => bytes.toString('utf8'))
    .catch(() => '');
  const done = new Set<number>();
  // A line is complete only with its newline: a torn last line names no range.
  for (const line of text.split('\n').slice(0, -1)) {
    const n = Number(line);
    if (/^\d+$/.test(line) && n < ranges) done.add(n);
  }
  return done;
}

export interface RunOptions {
  reader: RangeReader;
  concurrency?: number;
  signal?: AbortSignal;
  onProgress?: (progress: DownloadProgress) => void;
  /** True when the download was interrupted before: the source header is compared first. */
  resumed?: boolean;
  fs?: DurableFs;
}

/** Fetches every range not yet journaled; resolves with the finished part file's path. */
export async function runDownload(dir: string, plan: DownloadPlan, options: RunOptions) {
  const { reader } = options;
  const fs = options.fs ?? nodeDurableFs;
  reader.etag = plan.etag;
  if (options.resumed) {
    const header = await reader.read(0, HEADER_BYTES);
    if (Buffer.compare(Buffer.from(header), Buffer.from(plan.sourceHeader, 'base64')) !== 0)
      throw new RegionDownloadError(
        'source-changed',
        'The map source changed since the download started (a new build was published). Start the download again to get the new build.',
      );
  }
  const done = await doneRanges(fs, dir, plan.ranges.length);
  const tileDataOffset = Buffer.from(plan.head, 'base64').length;
  const progress: DownloadProgress = {
    doneBytes: plan.ranges.reduce((sum, r, i) => sum + (done.has(i) ? r.length : 0), 0),
    totalBytes: plan.downloadBytes,
    doneRanges: done.size,
    ranges: plan.ranges.length,
  };
  options.onProgress?.({ ...progress });
  const queue = plan.ranges.map((_, i) => i).filter((i) => !done.has(i));
  const part = await fs.ops.open(partFile(dir), 'r+');
  const journal = await fs.ops.open(journalFile(dir), 'a');
  let journalWrites: Promise<unknown> = Promise.resolve();
  const worker = async () => {
    for (let i = queue.shift(); i !== undefined; i = queue.shift()) {
      if (options.signal?.aborted) throw stopped(options.signal);
      const range = plan.ranges[i]!;
      const bytes = await reader.read(range.offset, range.length);
      for (let k = 0; k < range.pieces.length; k += 3) {
        const [at, out, length] = range.pieces.slice(k, k + 3) as [number, number, number];
        await writeAll(part, bytes.subarray(at, at + length), tileDataOffset + out);
      }
      await part.datasync();
      const entry = (journalWrites = journalWrites.then(async () => {
        await journal.appendFile(`${i}\n`);
        await journal.datasync();
      }));
      await entry;
      progress.doneBytes += range.length;
      progress.doneRanges++;
      options.onProgress?.({ ...progress });
    }
  };
  try {
    // One failure stops the others after their range in flight.
    const stopAll = (error: unknown) => {
      queue.length = 0;
      throw error;
    };
    const workers = Array.from({ length: options.concurrency ?? 4 }, () => worker().catch(stopAll));
    const results = await Promise.allSettled(workers);
    const failed = results.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
    await part.sync();
    const { size } = await part.stat();
    if (size !== plan.totalBytes)
      throw new RegionDownloadError('truncated', 'The downloaded region is incomplete.');
  } finally {
    await part.close();
    await journal.close();
  }
  return partFile(dir);
}

function stopped(signal: AbortSignal): RegionDownloadError {
  return signal.reason instanceof RegionDownloadError
    ? signal.reason
    : new RegionDownloadError('cancelled', 'The download was stopped.');
}

export async function discardDownload(dir: string, fs: DurableFs = nodeDurableFs): Promise<void> {
  await fs.remove(dir, { recursive: true });
}
