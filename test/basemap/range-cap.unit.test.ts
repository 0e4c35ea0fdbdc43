// serveRange never reads more than its cap into memory for one request: a range longer than
// the cap is answered with its first cap bytes (206, the true Content-Range), and a whole-file
// read of an archive over the cap is refused. Real archive file in a temp dir.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OfflineRegions } from '../../src-main/core/basemap/offline-regions';
import { regionArchive } from './fixture-tiles';

const CAP = 1024;
let dataDir: string;
let regions: OfflineRegions;
let id: string;
let bytes: Buffer;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'fieldmap-range-cap-'));
  const archive = join(dataDir, 'fixture.pmtiles');
  await writeFile(archive, regionArchive());
  regions = await OfflineRegions.open({ dataDir, maxRangeBytes: CAP });
  id = (await regions.add(archive, 'Fixture')).id;
  bytes = await readFile(regions.fileOf(id));
});

afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe('serveRange caps its span', () => {
  it('the fixture is larger than the cap', () => {
    expect(bytes.length).toBeGreaterThan(4 * CAP);
  });

  it('an open or long range gets its first CAP bytes and says so', async () => {
    const size = bytes.length;
    for (const [range, start] of [
      ['bytes=0-', 0],
      [`bytes=0-${size - 1}`, 0],
      ['bytes=100-', 100],
      [`bytes=-${3 * CAP}`, size - 3 * CAP],
    ] as const) {
      const answer = await regions.serveRange(id, range);
      expect(answer.status, range).toBe(206);
      expect(answer.body!.length, range).toBe(CAP);
      expect(answer.headers['Content-Range']).toBe(`bytes ${start}-${start + CAP - 1}/${size}`);
      expect(answer.headers['Content-Length']).toBe(String(CAP));
      expect(Buffer.from(answer.body!)).toEqual(bytes.subarray(start, start + CAP));
    }
  });

  it('a range within the cap is served whole', async () => {
    const answer = await regions.serveRange(id, 'bytes=10-19');
    expect(answer.status).toBe(206);
    expect(Buffer.from(answer.body!)).toEqual(bytes.subarray(10, 20));
  });

  it('a whole-file read over the cap is refused; under it, served', async () => {
    expect((await regions.serveRange(id, null)).status).toBe(413);
    const roomy = await OfflineRegions.open({ dataDir, maxRangeBytes: bytes.length });
    const whole = await roomy.serveRange(id, null);
    expect(whole.status).toBe(200);
    expect(whole.body!.length).toBe(bytes.length);
  });
});
