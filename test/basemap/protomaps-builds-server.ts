// A local imitation of the Protomaps daily builds (src-main/core/basemap/daily-builds.ts): a
// builds list as build-metadata.protomaps.dev/builds.json publishes it, and the builds it names
// served by range requests as build.protomaps.com serves them (206, Content-Range, an ETag), on
// 127.0.0.1. Each build is the town archive (streets-fixture.ts); every range request's path is
// kept, so a test sees which build was read.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DailyBuilds } from '../../src-main/core/basemap/daily-builds';
import { townArchive } from './streets-fixture';

/** The build the app must pick from BUILDS_LIST. */
export const NEWEST_KEY = '20261127.pmtiles';

/**
 * Protomaps' list shape with, around the newest good build, an older one and entries the app must
 * not pick although they sort later: a date that does not exist, a schema the app's style cannot
 * draw, a key that is a URL elsewhere, a key that climbs out of the folder, a key of another type.
 */
export const BUILDS_LIST: unknown[] = [
  { key: '20261120.pmtiles', uploaded: '2026-11-20T07:12:00Z', size: 1.2e11, version: '4.13.1' },
  { key: NEWEST_KEY, uploaded: '2026-11-27T07:10:00Z', size: 1.2e11, version: '4.13.2' },
  { key: '20261199.pmtiles', uploaded: '2026-11-28T07:10:00Z', size: 1, version: '4.13.2' },
  { key: '20261130.pmtiles', uploaded: '2026-11-30T07:10:00Z', size: 1, version: '5.0.0' },
  { key: 'https://elsewhere.example/20261201.pmtiles', size: 1, version: '4.13.2' },
  { key: '../20261202.pmtiles', size: 1, version: '4.13.2' },
  { key: 20261203, size: 1, version: '4.13.2' },
];

export interface BuildsServer {
  /** http://127.0.0.1:<port> */
  origin: string;
  /** The list and archive addresses, as main takes them (main-services.ts dailyBuilds). */
  builds: DailyBuilds;
  /** Each request's path, in arrival order ('/builds.json', '/<key>' for a range). */
  paths: string[];
  /** What /builds.json answers: the JSON of a list, text as it is, or a redirect elsewhere. */
  list: { body: unknown } | { text: string } | { redirect: string };
  close(): Promise<void>;
}

export async function startBuildsServer(): Promise<BuildsServer> {
  const archive = Buffer.from(townArchive());
  const state: BuildsServer = {
    origin: '',
    builds: { listUrl: '', archiveBase: '' },
    paths: [],
    list: { body: BUILDS_LIST },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const handle = (request: IncomingMessage, response: ServerResponse) => {
    const path = request.url ?? '';
    state.paths.push(path);
    if (path === '/builds.json') {
      const list = state.list;
      if ('redirect' in list) return response.writeHead(302, { Location: list.redirect }).end();
      return response
        .writeHead(200, { 'Content-Type': 'application/json' })
        .end('text' in list ? list.text : JSON.stringify(list.body));
    }
    if (!/^\/\d{8}\.pmtiles$/.test(path)) return response.writeHead(404).end();
    const match = /^bytes=(\d+)-(\d+)$/.exec(request.headers.range ?? '');
    if (!match) return response.writeHead(200, { 'Content-Length': archive.length }).end(archive);
    const start = Number(match[1]);
    const end = Math.min(Number(match[2]), archive.length - 1);
    const body = archive.subarray(start, end + 1);
    response
      .writeHead(206, {
        ETag: `"${path}"`,
        'Accept-Ranges': 'bytes',
        'Content-Type': 'application/octet-stream',
        'Content-Range': `bytes ${start}-${end}/${archive.length}`,
        'Content-Length': body.length,
      })
      .end(body);
  };
  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.builds = { listUrl: `${state.origin}/builds.json`, archiveBase: `${state.origin}/` };
  return state;
}
