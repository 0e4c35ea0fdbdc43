// Region download (issue 14): a fixed area of the test town (zooms 0..15) downloaded from a
// loopback range server, as the app does it (default coalescing, 4 requests at a time). Reports
// the requests the server saw and the time, against the minimum number of coalesced ranges: one
// request per contiguous byte run the area needs (header and root, leaves, tile data).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { OfflineRegions } from '../../src-main/core/basemap/offline-regions';
import { RegionDownloads } from '../../src-main/core/basemap/region-downloads';
import { planDownload } from '../../src-main/core/basemap/region-plan';
import { RangeReader } from '../../src-main/core/basemap/region-source';
import { systemClock } from '../../src-main/core/ports';
import { startRangeServer } from '../../test/basemap/range-server';
import { townArchive } from '../../test/basemap/streets-fixture';

/** Most of the town: hundreds of tiles spread over the archive. */
const AREA = {
  kind: 'bbox' as const,
  bounds: [-97.48, 37.62, -97.33, 37.77] as [number, number, number, number],
};

export async function run(): Promise<Record<string, number | string>> {
  const server = await startRangeServer(townArchive());
  const dataDir = await mkdtemp(path.join(tmpdir(), 'fieldmap-bench-region-'));
  try {
    const exact = await planDownload(
      new RangeReader(server.url, { clock: systemClock }),
      AREA,
      15,
      { maxGapBytes: 0 },
    );
    const minRanges = exact.directoryRequests + exact.ranges.length;
    const regions = await OfflineRegions.open({ dataDir });
    const downloads = await RegionDownloads.open({ dataDir, regions, clock: systemClock });
    const before = server.requests.length;
    const started = performance.now();
    const status = await downloads.settled(
      (await downloads.start({ url: server.url, area: AREA, maxZoom: 15, name: 'Bench' })).id,
    );
    const ms = performance.now() - started;
    if (status.state !== 'done') throw new Error(`download ${status.state}: ${status.error}`);
    const requests = server.requests.length - before;
    return {
      region_download_requests: requests,
      region_download_min_ranges: minRanges,
      region_download_ms: Math.round(ms),
      region_download_tiles: exact.tileCount,
      region_download_bytes: regions.list()[0]!.sizeBytes,
    };
  } finally {
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}
