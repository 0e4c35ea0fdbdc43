// Helpers of the region download tests: a download manager on a temp data dir against a
// loopback source, and the tiles of a PMTiles archive in memory read with the pmtiles library.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { PMTiles, tileIdToZxy, type RangeResponse, type Source } from 'pmtiles';
import { OfflineRegions } from '../../src-main/core/basemap/offline-regions';
import {
  RegionDownloads,
  type RegionDownloadsOptions,
} from '../../src-main/core/basemap/region-downloads';
import type { Clock } from '../../src-main/core/ports';

/** Retries wait on this clock: no wall-clock time passes in the tests. */
export const instantClock: Clock = { now: () => Date.now(), sleep: async () => undefined };

export async function openDownloads(
  dataDir: string,
  options: Partial<RegionDownloadsOptions> = {},
): Promise<{ regions: OfflineRegions; downloads: RegionDownloads }> {
  const regions = await OfflineRegions.open({ dataDir });
  const downloads = await RegionDownloads.open({
    dataDir,
    regions,
    clock: instantClock,
    maxGapBytes: 0,
    freeSpace: async () => 100 * 1024 ** 3,
    // The loopback source plays an address the rep typed and confirmed.
    confirmedLocal: () => true,
    ...options,
  });
  return { regions, downloads };
}

/** Files left in the data dir's download and region folders. */
export async function leftovers(dataDir: string): Promise<string[]> {
  const list = async (dir: string) =>
    (await readdir(join(dataDir, dir)).catch(() => [] as string[])).map((f) => `${dir}/${f}`);
  return [...(await list('region-downloads')), ...(await list('regions'))];
}

class MemorySource implements Source {
  constructor(
    private readonly bytes: Uint8Array,
    private readonly key: string,
  ) {}
  getKey(): string {
    return this.key;
  }
  async getBytes(offset: number, length: number): Promise<RangeResponse> {
    return { data: this.bytes.slice(offset, offset + length).buffer as ArrayBuffer };
  }
}

export function readArchive(bytes: Uint8Array, key: string): PMTiles {
  return new PMTiles(new MemorySource(bytes, key));
}

/** The (decompressed) tile `id` of an archive, or null. */
export async function tileOf(archive: PMTiles, id: number): Promise<Uint8Array | null> {
  const [z, x, y] = tileIdToZxy(id);
  const tile = await archive.getZxy(z, x, y);
  return tile ? new Uint8Array(tile.data) : null;
}
