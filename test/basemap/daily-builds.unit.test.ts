// The Protomaps builds list is untrusted bytes from the internet: the newest well-formed build the
// app can draw is picked, malformed or foreign entries are skipped, the list's size and the
// entries looked at are capped, addresses are https (http only for a loopback imitation), and a
// redirect is refused, never followed. Real HTTP on 127.0.0.1 (protomaps-builds-server.ts).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkDailyBuilds,
  MAX_BUILDS,
  MAX_BUILDS_LIST_BYTES,
  newestBuild,
  PROTOMAPS_DAILY_BUILDS,
  readNewestBuild,
} from '../../src-main/core/basemap/daily-builds';
import {
  BUILDS_LIST,
  NEWEST_KEY,
  startBuildsServer,
  type BuildsServer,
} from './protomaps-builds-server';

const BASE = 'https://build.protomaps.com/';
const build = (key: string, version = '4.13.2') => ({ key, version, size: 1, uploaded: '' });

let server: BuildsServer;

beforeAll(async () => {
  server = await startBuildsServer();
});

afterAll(async () => {
  await server?.close();
});

describe('the newest build of a list', () => {
  it('is the newest dated key of a compatible schema, under the archive base', () => {
    expect(newestBuild(BUILDS_LIST, BASE)).toEqual({
      key: NEWEST_KEY,
      url: `${BASE}${NEWEST_KEY}`,
    });
  });

  it('is none for a list that is not one, or names nothing usable', () => {
    for (const list of [null, 'x', 42, { builds: BUILDS_LIST }, [], [null, [], 'a.pmtiles']])
      expect(newestBuild(list, BASE)).toBeNull();
    const malformed = [
      { key: '20261127.pmtiles' }, // no version
      build('20261127.pmtiles', '3.9.0'), // a schema the style cannot draw
      build('20260230.pmtiles'), // no 30 February
      build('2026112.pmtiles'),
      build('20261127.pmtiles.exe'),
      build('//elsewhere.example/20261127.pmtiles'),
      build('%2e%2e/20261127.pmtiles'),
      { key: '20261127.pmtiles', version: 4 },
    ];
    expect(newestBuild(malformed, BASE)).toBeNull();
  });

  it(`looks at no more than ${MAX_BUILDS} entries`, () => {
    const list = [
      ...Array.from({ length: MAX_BUILDS }, () => build('20260101.pmtiles')),
      build('20261127.pmtiles'),
    ];
    expect(newestBuild(list, BASE)?.key).toBe('20260101.pmtiles');
  });
});

describe('reading the list', () => {
  it('reads the imitation and names its newest build there', async () => {
    server.list = { body: BUILDS_LIST };
    const newest = await readNewestBuild(server.builds, globalThis.fetch);
    expect(newest.url).toBe(`${server.origin}/${NEWEST_KEY}`);
  });

  it(`refuses a list over ${MAX_BUILDS_LIST_BYTES / 1024} KiB`, async () => {
    const entry = build('20261127.pmtiles');
    const count = Math.ceil(MAX_BUILDS_LIST_BYTES / JSON.stringify(entry).length) + 1;
    server.list = { body: Array.from({ length: count }, () => entry) };
    await expect(readNewestBuild(server.builds, globalThis.fetch)).rejects.toThrow(
      /larger than a list of builds/,
    );
  });

  it('refuses a redirect and never follows it', async () => {
    const hits: string[] = [];
    const elsewhere = createServer((req, res) => {
      hits.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(BUILDS_LIST));
    });
    await new Promise<void>((r) => elsewhere.listen(0, '127.0.0.1', r));
    const port = (elsewhere.address() as AddressInfo).port;
    try {
      server.list = { redirect: `http://127.0.0.1:${port}/builds.json` };
      await expect(readNewestBuild(server.builds, globalThis.fetch)).rejects.toThrow(
        /redirects elsewhere/,
      );
      expect(hits).toEqual([]);
    } finally {
      elsewhere.closeAllConnections();
      await new Promise<void>((r) => elsewhere.close(() => r()));
      server.list = { body: BUILDS_LIST };
    }
  });

  it('says why when the list is not JSON, names nothing, or cannot be reached', async () => {
    server.list = { text: '<html>Maintenance</html>' };
    await expect(readNewestBuild(server.builds, globalThis.fetch)).rejects.toThrow(
      /its list is not JSON/,
    );
    server.list = { body: [build('2026.pmtiles')] };
    await expect(readNewestBuild(server.builds, globalThis.fetch)).rejects.toThrow(
      /names no build this app can draw/,
    );
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const unreachable = { ...server.builds, listUrl: `http://127.0.0.1:${port}/builds.json` };
    await expect(readNewestBuild(unreachable, globalThis.fetch)).rejects.toThrow(
      /could not be found: no answer from 127\.0\.0\.1/,
    );
    server.list = { body: BUILDS_LIST };
  });

  it('takes https addresses only (plain http on loopback, for an imitation)', () => {
    expect(checkDailyBuilds(PROTOMAPS_DAILY_BUILDS)).toEqual(PROTOMAPS_DAILY_BUILDS);
    for (const listUrl of [
      'http://build-metadata.protomaps.dev/builds.json',
      'ftp://127.0.0.1/builds.json',
      'http://10.0.0.2/builds.json',
    ])
      expect(() => checkDailyBuilds({ ...PROTOMAPS_DAILY_BUILDS, listUrl })).toThrow(/https/);
    expect(() =>
      checkDailyBuilds({ ...PROTOMAPS_DAILY_BUILDS, archiveBase: 'http://build.protomaps.com/' }),
    ).toThrow(/https/);
  });
});
