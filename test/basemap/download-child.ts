// Run by region-download.test.ts in its own process, to be killed (SIGKILL) mid-download:
// starts downloading the test area from the source URL into the data dir, then waits.
import { systemClock } from '../../src-main/core/ports';
import { OfflineRegions } from '../../src-main/core/basemap/offline-regions';
import { RegionDownloads } from '../../src-main/core/basemap/region-downloads';
import { AREA_BOUNDS } from './streets-fixture';

const [dataDir, url] = process.argv.slice(2) as [string, string];
const regions = await OfflineRegions.open({ dataDir });
const downloads = await RegionDownloads.open({
  dataDir,
  regions,
  clock: systemClock,
  maxGapBytes: 0,
  concurrency: 4,
  // The loopback source plays an address the rep typed and confirmed.
  confirmedLocal: () => true,
});
await downloads.start({
  url,
  area: { kind: 'bbox', bounds: AREA_BOUNDS },
  maxZoom: 15,
  name: 'Town',
});
process.stdout.write('started\n');
setInterval(() => undefined, 60_000); // held requests never answer: wait to be killed
