// Crafted map sources (issue 30): each is served by a real loopback server and estimated through
// the download manager main uses (the plan worker, the range reader), and must be refused with a
// message naming the source and the reason, with the offline region already there untouched.
import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OfflineRegion } from '../../src-main/core/basemap/offline-regions';
import { planDownload } from '../../src-main/core/basemap/region-plan';
import { RangeReader } from '../../src-main/core/basemap/region-source';
import { regionArchive } from './fixture-tiles';
import { CRAFTED_ARCHIVES, endlessBody, stalledBody, startHostileServer } from './hostile-archives';
import { startRangeServer } from './range-server';
import { instantClock, leftovers, openDownloads } from './region-download-support';
import { AREA_BOUNDS, townArchive } from './streets-fixture';

const area = { kind: 'bbox' as const, bounds: AREA_BOUNDS };
const REFUSED = /^The map source 127\.0\.0\.1:\d+\/[a-z]+\.pmtiles was refused: /;
let root: string;
let dir: string;
let kept: OfflineRegion;
let keptBytes: Buffer;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'fieldmap-hostile-'));
  dir = join(root, 'data');
  const file = join(root, 'kept.pmtiles');
  await writeFile(file, regionArchive());
  const { regions } = await openDownloads(dir);
  kept = await regions.add(file, 'Kept');
  keptBytes = await readFile(regions.fileOf(kept.id));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** The region that was there before is listed and byte for byte the same; nothing else is left. */
async function nothingLost(): Promise<void> {
  const { regions } = await openDownloads(dir);
  expect(regions.list()).toEqual([kept]);
  expect(await readFile(regions.fileOf(kept.id))).toEqual(keptBytes);
  expect(await leftovers(dir)).toEqual([`regions/${kept.id}.pmtiles`]);
}

describe('a crafted PMTiles archive is refused with the reason, and nothing is lost', () => {
  for (const crafted of CRAFTED_ARCHIVES) {
    it(crafted.name, async () => {
      const server = await startRangeServer(crafted.bytes());
      try {
        const { downloads } = await openDownloads(dir);
        const estimate = downloads.estimate(server.url, area, 15);
        await expect(estimate).rejects.toThrow(REFUSED);
        await expect(estimate).rejects.toThrow(crafted.reason);
      } finally {
        await server.close();
      }
      await nothingLost();
    });
  }
});

describe('a download from a crafted source', () => {
  it('is refused before anything is written', async () => {
    const crafted = CRAFTED_ARCHIVES[0]!;
    const server = await startRangeServer(crafted.bytes());
    try {
      const { downloads } = await openDownloads(dir);
      const start = downloads.start({ url: server.url, area, maxZoom: 15, name: 'Hostile' });
      await expect(start).rejects.toThrow(crafted.reason);
      expect(downloads.list()).toEqual([]);
    } finally {
      await server.close();
    }
    await nothingLost();
  });
});

describe('a crafted archive added as a file', () => {
  it('is refused when its header points outside the file, and nothing is added', async () => {
    const crafted = CRAFTED_ARCHIVES.find((c) => /outside the file/.test(c.name))!;
    const file = join(root, 'crafted.pmtiles');
    await writeFile(file, crafted.bytes());
    const { regions } = await openDownloads(dir);
    await expect(regions.add(file, 'Crafted')).rejects.toThrow(crafted.reason);
    await nothingLost();
  });
});

describe('a source whose answers never end or stall', () => {
  it('an endless body is cut off at the bytes asked for and refused', async () => {
    const server = await startHostileServer(endlessBody);
    try {
      const { downloads } = await openDownloads(dir);
      const estimate = downloads.estimate(server.url, area, 15);
      await expect(estimate).rejects.toThrow(REFUSED);
      await expect(estimate).rejects.toThrow(/more bytes than asked for/);
      expect(server.requests).toBe(1); // not retried
    } finally {
      await server.close();
    }
    await nothingLost();
  });

  it('a body that stalls is given up, and so is the estimate', async () => {
    const server = await startHostileServer(stalledBody);
    try {
      const { downloads } = await openDownloads(dir, { stallMs: 200 });
      await expect(downloads.estimate(server.url, area, 15)).rejects.toThrow(/stopped answering/);
    } finally {
      await server.close();
    }
    await nothingLost();
  });

  it('a plan worker that computes past its bound is ended and the source refused', async () => {
    const server = await startRangeServer(townArchive());
    try {
      const { downloads } = await openDownloads(dir, { planWorker: { busyMs: 0 } });
      const estimate = downloads.estimate(server.url, area, 15);
      await expect(estimate).rejects.toThrow(REFUSED);
      await expect(estimate).rejects.toThrow(/reading it took too long/);
    } finally {
      await server.close();
    }
    await nothingLost();
  });
});

describe('addresses on this computer or the LAN', () => {
  it('are fetched only when the rep confirmed them', async () => {
    const server = await startRangeServer(townArchive());
    const asked: string[] = [];
    const recording: typeof fetch = (input, init) => {
      asked.push(String(input));
      return fetch(input, init);
    };
    try {
      const { downloads } = await openDownloads(dir, {
        confirmedLocal: () => false,
        fetch: recording,
      });
      for (const url of [
        server.url,
        'https://192.168.1.20/a.pmtiles',
        'https://[fd00::1]/a.pmtiles',
      ])
        await expect(downloads.estimate(url, area, 15)).rejects.toThrow(
          /on this computer or the local network/,
        );
      expect(asked).toEqual([]);
      expect(server.requests).toEqual([]);
      const confirmed = await openDownloads(dir, {
        confirmedLocal: (origin) => origin === new URL(server.url).origin,
      });
      expect((await confirmed.downloads.estimate(server.url, area, 15)).tileCount).toBeGreaterThan(
        0,
      );
    } finally {
      await server.close();
    }
  });
});

describe('the resume file of an interrupted download', () => {
  it('is resumed only when it passes the strict schema; otherwise it is discarded', async () => {
    const server = await startRangeServer(townArchive());
    const reader = new RangeReader(server.url, { clock: instantClock, confirmedLocal: true });
    const plan = await planDownload(reader, area, 15);
    await server.close();
    const stored = { ...plan, name: 'Town', area, replaces: null };
    const [first] = stored.ranges;
    const variants: Array<[string, unknown]> = [
      ['sound', stored],
      [
        'a piece written past the file',
        { ...stored, ranges: [{ ...first!, pieces: [0, plan.totalBytes, 1] }] },
      ],
      [
        'a piece read past its range',
        { ...stored, ranges: [{ ...first!, pieces: [first!.length, 0, 1] }] },
      ],
      ['a range of 1 GiB', { ...stored, ranges: [{ offset: 0, length: 1024 ** 3, pieces: [] }] }],
      ['a file source', { ...stored, sourceUrl: 'file:///etc/passwd' }],
      ['a field it does not know', { ...stored, extra: 1 }],
      ['a name of 10,000 characters', { ...stored, name: 'x'.repeat(10_000) }],
      ['a size over the limit', { ...stored, totalBytes: 2 ** 40 }],
    ];
    const downloadsDir = join(dir, 'region-downloads');
    for (const [label, content] of variants) {
      await mkdir(join(downloadsDir, 'resume-test'), { recursive: true });
      await writeFile(join(downloadsDir, 'resume-test', 'plan.json'), JSON.stringify(content));
      const { downloads } = await openDownloads(dir);
      const listed = downloads.list().map((d) => d.name);
      expect(listed, label).toEqual(label === 'sound' ? ['Town'] : []);
      await rm(join(downloadsDir, 'resume-test'), { recursive: true, force: true });
    }
    await nothingLost();
  });
});
