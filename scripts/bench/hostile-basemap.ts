// Bench module: crafted map sources through main's real code paths (issue 30). Each case runs one
// crafted input through the services main uses (BasemapService: its region downloads with the
// plan worker, its tile proxy and cache) against a loopback server playing the hostile source,
// and resolves once main has refused it (or, for the territories and the 90,000-URL style,
// answered).
// `basemapHostileCases()` is what scripts/bench/hostile.ts runs; `run()` measures main's event
// loop over each case on its own:
// - basemap_hostile_max_loop_delay_ms: the largest event-loop delay of main over all cases
//   (perf_hooks.monitorEventLoopDelay at 10 ms resolution); target under 100 ms.
// - basemap_hostile_<case>_ms: each case's own largest delay.
// - basemap_hostile_idle_loop_delay_ms: the largest delay while main waits 2 s doing nothing, the
//   machine's own noise in the same run (on a loaded machine it is far above zero).
// - basemap_hostile_<case>_busy_ms: how long main's event loop was busy during the case
//   (eventLoopUtilization's active time): its own work, apart from waiting for a core.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import * as v from 'valibot';
import { createRegionDownloadHandlers } from '../../src-main/app/region-download-handlers';
import { refusedResolution } from '../../src-main/core/basemap/remote-policy';
import { BasemapService } from '../../src-main/core/basemap/service';
import { fetchFromEnv } from '../../src-main/core/network/env-fetch';
import { guardedLookup, type Resolver } from '../../src-main/core/network/local-address-guard';
import { RegionAreaSchema } from '../../src-shared/basemap';
import { systemClock } from '../../src-main/core/ports';
import { regionArchive } from '../../test/basemap/fixture-tiles';
import {
  CRAFTED_ARCHIVES,
  endlessBody,
  startHostileServer,
} from '../../test/basemap/hostile-archives';
import { startRangeServer } from '../../test/basemap/range-server';
import { AREA_BOUNDS, townArchive } from '../../test/basemap/streets-fixture';

export interface HostileCase {
  name: string;
  run: () => Promise<void>;
}

const AREA = { kind: 'bbox' as const, bounds: AREA_BOUNDS };

/** Resolves when `task` rejects; a task that succeeds is a bench failure (nothing was refused). */
async function refused(task: Promise<unknown>, what: string): Promise<void> {
  try {
    await task;
  } catch {
    return;
  }
  throw new Error(`${what} was not refused`);
}

/** A ring of `n` corners around the town, about 3° across: a large territory's outline. */
function territory(n: number): Array<[number, number]> {
  return Array.from({ length: n }, (_, i) => {
    const a = (2 * Math.PI * i) / n;
    const r = 1.5 * (0.85 + 0.15 * Math.sin(7 * a));
    return [-97.4 + r * Math.cos(a), 37.7 + 0.8 * r * Math.sin(a)] as [number, number];
  });
}

export async function basemapHostileCases(): Promise<HostileCase[]> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'fieldmap-bench-hostile-'));
  process.once('exit', () => rmSync(dataDir, { recursive: true, force: true }));
  // Main's map network (main-services.ts): its lookup refuses a name resolving to this computer.
  // No DNS here: the resolver plays a public name whose A record is 127.0.0.1 (localtest.me).
  const resolver: Resolver = async (hostname) => {
    if (hostname === 'tiles.example.test') return [{ address: '127.0.0.1', family: 4 }];
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  };
  const confirmed = { origins: (): readonly string[] => [] };
  const network = fetchFromEnv(
    {},
    {
      lookup: guardedLookup(resolver, (host, address) =>
        refusedResolution(host, address, confirmed.origins()),
      ),
    },
  );
  const basemap = await BasemapService.open({ dataDir, clock: systemClock, fetch: network.fetch });
  confirmed.origins = () => basemap.settings().confirmedOrigins;
  const handlers = createRegionDownloadHandlers(basemap);
  // An offline region already there: the cases must leave it as it is.
  const kept = path.join(dataDir, 'kept.pmtiles');
  writeFileSync(kept, regionArchive());
  await basemap.regions.add(kept, 'Kept');

  // Every source is a loopback server, confirmed as the rep would in main's dialog.
  const confirm = async (url: string) => {
    const origin = new URL(url).origin;
    await basemap.setSettings({ regionSourceUrl: url, confirmedOrigins: [origin] });
  };
  const cases: HostileCase[] = [];
  for (const crafted of CRAFTED_ARCHIVES) {
    const server = await startRangeServer(crafted.bytes());
    cases.push({
      name: crafted.name,
      run: async () => {
        await confirm(server.url);
        await refused(basemap.downloads.estimate(server.url, AREA, 15), crafted.name);
        await server.close();
      },
    });
  }
  const endless = await startHostileServer(endlessBody);
  cases.push({
    name: 'range answer whose body never ends',
    run: async () => {
      await confirm(endless.url);
      await refused(basemap.downloads.estimate(endless.url, AREA, 15), 'endless body');
      await endless.close();
    },
  });
  const town = await startRangeServer(townArchive());
  // Through 'regions:estimate' as IPC hands it over: the schema, the outline's checks, the plan.
  for (const corners of [1_000, 10_000]) {
    const area = { kind: 'polygon' as const, ring: territory(corners) };
    cases.push({
      name: `estimate of a ${corners.toLocaleString('en-US')}-corner territory`,
      run: async () => {
        await confirm(town.url);
        const request = { area: v.parse(RegionAreaSchema, area), maxZoom: 15 };
        await handlers['regions:estimate'](request).catch(() => undefined);
      },
    });
  }
  const named = `https://tiles.example.test:${new URL(town.url).port}/town.pmtiles`;
  cases.push({
    name: 'source whose name resolves to 127.0.0.1',
    run: async () => {
      await basemap.setSettings({ regionSourceUrl: named, confirmedOrigins: [] });
      await refused(basemap.downloads.estimate(named, AREA, 15), 'a name resolving to loopback');
    },
  });
  // Made before the cases: the server shares main's event loop here, and its own work must not
  // count as main's.
  const member = gzipSync(Buffer.alloc(16 * 1024 * 1024), { level: 9 });
  const huge = Buffer.from(
    JSON.stringify({
      version: 8,
      sources: {
        s: {
          type: 'vector',
          tiles: Array.from({ length: 1_000_000 }, (_, i) => `https://h${i}.example/x`),
        },
      },
    }),
  );
  // Just under the 2 MiB a style is read up to: a million levels deep, and 90,000 URLs.
  const nested = Buffer.from(`${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`);
  const wide = Buffer.from(
    JSON.stringify({
      version: 8,
      sources: {
        s: {
          type: 'vector',
          tiles: Array.from({ length: 90_000 }, (_, i) => `https://h${i}.ex/x`),
        },
      },
    }),
  );
  const tiles = await startHostileServer((request, response) => {
    if (request.url === '/bomb.pbf') {
      response.writeHead(200, {
        'content-type': 'application/x-protobuf',
        'content-encoding': 'gzip',
      });
      for (let i = 0; i < 64; i++) response.write(member);
      response.end();
      return;
    }
    const json = { '/huge.json': huge, '/nested.json': nested, '/wide.json': wide }[
      request.url ?? ''
    ];
    if (json) {
      // In pieces, as the client drains them: a real server is another process, and one 30 MB
      // socket write here would be counted as main's own delay.
      response.writeHead(200, { 'content-type': 'application/json' });
      let at = 0;
      const pump = () => {
        while (at < json.length) {
          const piece = json.subarray(at, at + 64 * 1024);
          at += piece.length;
          if (!response.write(piece)) return void response.once('drain', pump);
        }
        response.end();
      };
      pump();
      return;
    }
    endlessBody(request, response);
  });
  const origin = new URL(tiles.url).origin;
  const proxy = async (target: string) => {
    await basemap.setSettings({
      onlineStyleUrl: `${origin}/style.json`,
      confirmedOrigins: [origin],
    });
    const answer = await basemap.handleRequest(
      new URL(`app://fieldmap/tiles?url=${encodeURIComponent(`${origin}${target}`)}`),
      null,
    );
    const served = ['/huge.json', '/wide.json'].includes(target);
    if (!served && answer?.status === 200) throw new Error(`${target} was served`);
  };
  cases.push(
    { name: 'tile that is a 1 GiB gzip bomb', run: () => proxy('/bomb.pbf') },
    { name: 'style whose body never ends', run: () => proxy('/endless.json') },
    { name: 'style of 30 MB with a million URLs', run: () => proxy('/huge.json') },
    { name: 'style of 2 MB nested a million deep', run: () => proxy('/nested.json') },
    { name: 'style of 2 MB with 90,000 URLs', run: () => proxy('/wide.json') },
  );
  cases.push({
    name: 'close',
    run: async () => {
      await tiles.close();
      await town.close();
      await network.close();
      if (basemap.regions.list().length !== 1) throw new Error('the kept region was lost');
    },
  });
  return cases;
}
