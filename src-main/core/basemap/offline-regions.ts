// Offline regions: PMTiles archives the user added (File > Add offline region…). Each is copied
// into <dataDir>/regions/<id>.pmtiles, so it stays usable when the original (a USB stick, a
// download folder) goes away, and main only ever serves files of its own folder. The registry is
// <dataDir>/regions.json, written atomically. serveRange answers the renderer's HTTP range reads.
import { randomUUID } from 'node:crypto';
import { open, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { bytesToHeader, TileType } from 'pmtiles';
import * as v from 'valibot';
import { OfflineRegionSchema, type OfflineRegion } from '../../../src-shared/basemap';
import { nodeDurableFs, type DurableFs } from '../durable-fs';
import { checkLayout } from './archive-bounds';
import { textResponse, type BasemapResponse } from './files';

// The registry's record is the one the IPC contract sends (src-shared/basemap.ts).
export { OfflineRegionSchema, type OfflineRegion };

const RegistrySchema = v.object({ version: v.literal(1), regions: v.array(OfflineRegionSchema) });

export class RegionError extends Error {
  override name = 'RegionError';
}

const HEADER_BYTES = 127;

/** Reads and checks a PMTiles v3 header: vector tiles only (the basemap layers need MVT). */
async function readHeader(file: string): Promise<ReturnType<typeof bytesToHeader>> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(HEADER_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, HEADER_BYTES, 0);
    if (bytesRead < HEADER_BYTES || buffer.toString('ascii', 0, 7) !== 'PMTiles') {
      throw new RegionError('not a PMTiles archive');
    }
    const header = bytesToHeader(
      buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + HEADER_BYTES),
    );
    if (header.specVersion !== 3)
      throw new RegionError(`PMTiles version ${header.specVersion} is not supported (3 is)`);
    if (header.tileType !== TileType.Mvt)
      throw new RegionError('the archive holds no vector tiles');
    // The map reads the file by these offsets: a header pointing outside it is refused here.
    const problem = checkLayout(header, (await handle.stat()).size);
    if (problem) throw new RegionError(problem);
    return header;
  } finally {
    await handle.close();
  }
}

/** Most bytes one read answers (PMTiles clients ask for a header, directories or a tile). */
export const DEFAULT_MAX_RANGE_BYTES = 16 * 1024 * 1024;

export class OfflineRegions {
  readonly #dir: string;
  readonly #registry: string;
  readonly #now: () => number;
  readonly #maxRangeBytes: number;
  readonly #fs: DurableFs;
  #regions: OfflineRegion[] = [];
  #queue: Promise<unknown> = Promise.resolve();

  private constructor(dataDir: string, now: () => number, maxRangeBytes: number, fs: DurableFs) {
    this.#dir = join(dataDir, 'regions');
    this.#registry = join(dataDir, 'regions.json');
    this.#now = now;
    this.#maxRangeBytes = maxRangeBytes;
    this.#fs = fs;
  }

  static async open(options: {
    dataDir: string;
    now?: () => number;
    /** Cap of one read's span (default DEFAULT_MAX_RANGE_BYTES). */
    maxRangeBytes?: number;
    fs?: DurableFs;
  }): Promise<OfflineRegions> {
    const fs = options.fs ?? nodeDurableFs;
    const regions = new OfflineRegions(
      options.dataDir,
      options.now ?? Date.now,
      options.maxRangeBytes ?? DEFAULT_MAX_RANGE_BYTES,
      fs,
    );
    const parsed = v.safeParse(RegistrySchema, await fs.readJson(regions.#registry));
    // A region whose file went missing is dropped rather than served as errors.
    if (parsed.success) {
      for (const region of parsed.output.regions) {
        if (await stat(regions.fileOf(region.id)).catch(() => null)) regions.#regions.push(region);
      }
    }
    return regions;
  }

  list(): OfflineRegion[] {
    return this.#regions.map((r) => ({ ...r, bounds: [...r.bounds] }));
  }

  /** The archive's path inside the data dir. */
  fileOf(id: string): string {
    return join(this.#dir, `${id}.pmtiles`);
  }

  /** Copies the archive in and remembers it; the name defaults to the file's. */
  add(sourcePath: string, name: string): Promise<OfflineRegion> {
    return this.#serial(async () => {
      const header = await readHeader(sourcePath);
      const id = randomUUID();
      await this.#fs.mkdir(this.#dir);
      const file = this.fileOf(id);
      const tmp = `${file}.tmp`;
      await this.#fs.ops.copyFile(sourcePath, tmp);
      await this.#fs.rename(tmp, file);
      await this.#fs.syncDir(this.#dir);
      const region: OfflineRegion = {
        id,
        name,
        sizeBytes: (await stat(file)).size,
        bounds: [header.minLon, header.minLat, header.maxLon, header.maxLat],
        minZoom: header.minZoom,
        maxZoom: header.maxZoom,
        addedAt: this.#now(),
      };
      this.#regions.push(region);
      await this.#save();
      return { ...region };
    });
  }

  /** Moves a finished download in (one rename, same disk) and remembers it. */
  adopt(file: string, fields: Omit<OfflineRegion, 'id' | 'sizeBytes' | 'addedAt'>) {
    return this.#serial(async () => {
      const id = randomUUID();
      await this.#fs.mkdir(this.#dir);
      await this.#fs.rename(file, this.fileOf(id));
      await this.#fs.syncDir(this.#dir);
      const sizeBytes = (await stat(this.fileOf(id))).size;
      const region: OfflineRegion = { ...fields, id, sizeBytes, addedAt: this.#now() };
      this.#regions.push(region);
      await this.#save();
      return { ...region };
    });
  }

  remove(id: string): Promise<boolean> {
    return this.#serial(async () => {
      const before = this.#regions.length;
      this.#regions = this.#regions.filter((r) => r.id !== id);
      if (this.#regions.length === before) return false;
      await this.#save();
      await this.#fs.remove(this.fileOf(id));
      return true;
    });
  }

  /**
   * Answers `GET regions/<id>.pmtiles` with a `Range: bytes=a-b` header (206), or the whole file
   * (200). One read holds at most the cap in memory: a longer range gets its first cap bytes
   * (the Content-Range says which; HTTP clients ask again for the rest), a whole-file read of an
   * archive over the cap is refused (413).
   */
  async serveRange(id: string, rangeHeader: string | null): Promise<BasemapResponse> {
    if (!this.#regions.some((r) => r.id === id)) return textResponse(404, 'no such region');
    const file = this.fileOf(id);
    const size = (await stat(file)).size;
    const base = {
      'Content-Type': 'application/octet-stream',
      'Accept-Ranges': 'bytes',
      'Cache-Control': 'no-cache',
    };
    let start = 0;
    let end = size - 1;
    if (rangeHeader !== null) {
      const match = /^bytes=(\d*)-(\d*)$/.exec(rangeHeader.trim());
      if (!match || (match[1] === '' && match[2] === '')) {
        return {
          status: 416,
          headers: { ...base, 'Content-Range': `bytes */${size}` },
          body: null,
        };
      }
      if (match[1] === '') {
        start = Math.max(0, size - Number(match[2])); // suffix range: the last N bytes
      } else {
        start = Number(match[1]);
        end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
      }
      if (start >= size || start > end) {
        return {
          status: 416,
          headers: { ...base, 'Content-Range': `bytes */${size}` },
          body: null,
        };
      }
    }
    if (rangeHeader === null && size > this.#maxRangeBytes) {
      return textResponse(413, 'the region is read with Range requests');
    }
    end = Math.min(end, start + this.#maxRangeBytes - 1);
    const length = end - start + 1;
    const body = Buffer.alloc(length);
    const handle = await open(file, 'r');
    try {
      await handle.read(body, 0, length, start);
    } finally {
      await handle.close();
    }
    const headers: Record<string, string> = { ...base, 'Content-Length': String(length) };
    if (rangeHeader === null) return { status: 200, headers, body };
    headers['Content-Range'] = `bytes ${start}-${end}/${size}`;
    return { status: 206, headers, body };
  }

  async #save(): Promise<void> {
    await this.#fs.writeJson(this.#registry, { version: 1, regions: this.#regions });
  }

  #serial<T>(task: () => Promise<T>): Promise<T> {
    const next = this.#queue.then(task, task);
    this.#queue = next.catch(() => undefined);
    return next;
  }
}
