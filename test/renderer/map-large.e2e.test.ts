// Large pin sets (issue 13): MapLibre gets URL_RELOAD_MIN pins or more as a blob: URL its worker
// loads (the page never serialises them for postMessage, nor gets the parsed copy back) and
// keeps, so a filter sends it only which pins are shown; an edit's diff over the pins only looks
// at the records that are new objects.
import { describe, expect, it } from 'vitest';
import { CUSTOMER_SOURCE } from '../../src-renderer/src/map/layers/customer-layer';
import { diffPins, type PinTable } from '../../src-renderer/src/map/layers/customer-patch';
import { buildPins, URL_RELOAD_MIN } from '../../src-renderer/src/map/layers/pin-blob';
import { MAP_SOURCE_RELOAD_MARK } from '../../src-renderer/src/map/drawn-mark';
import { MAP_FILTER_APPLIED_MARK } from '../../src-renderer/src/map/layers/pin-filter';
import { parsePinsRequest } from '../../src-renderer/src/map/layers/pins-request';
import type { CustomerView } from '../../src-renderer/src/types';
import { customer, makeCustomers } from './map-fixtures/customers';
import { mapHarness } from './map-fixtures/session';

const map = mapHarness();

describe('MapView with a large set', () => {
  it('hands MapLibre the pins as a URL its worker loads and keeps: every pin drawn, no copy back in the page, a filter and its reset as shown pins', async () => {
    const n = URL_RELOAD_MIN + 500;
    const customers = makeCustomers(n, 17, { box: [-10, 40, 10, 50] });
    const { page, h, errors } = await map.open({ customers });
    await page.waitForFunction(
      ([mark, count]) =>
        (performance.getEntriesByName(mark) as PerformanceMark[]).some(
          (m) => (m.detail as { features: number }).features === count,
        ),
      [MAP_SOURCE_RELOAD_MARK, n] as const,
    );
    await h('idle');
    const drawn = await h('countRendered');
    expect(drawn.pins + drawn.clusteredPoints).toBe(n);
    // MapLibre's page side of the source: loaded from a blob: URL of every pin (a pins request
    // its worker reads), holding no parsed features.
    const data = await page.evaluate((id) => {
      const root = document.querySelector('.fm-map') as unknown as {
        fieldmapMap: { map: { getSource(id: string): { _data: Record<string, unknown> } } };
      };
      const held = root.fieldmapMap.map.getSource(id)._data;
      return { url: String(held['url'] ?? ''), geojson: 'geojson' in held && !!held['geojson'] };
    }, CUSTOMER_SOURCE);
    expect(parsePinsRequest(data.url)?.pins?.startsWith('blob:')).toBe(true);
    expect(data.geojson).toBe(false);

    // A narrow filter, then its reset: each sends the worker only which pins are shown.
    const filter = (count: number | null) =>
      page.evaluate(
        ([count, mark]) => {
          const root = document.querySelector('.fm-map') as unknown as {
            fieldmapMap: {
              customers: { ids: readonly string[] };
              setShown(list: Array<{ id: string; position: [number, number] }> | null): void;
            };
          };
          const c = root.fieldmapMap;
          const before = performance.getEntriesByName(mark).length;
          const list =
            count === null
              ? null
              : c.customers.ids
                  .slice(0, count)
                  .map((id) => ({ id, position: [0, 0] as [number, number] }));
          c.setShown(list);
          return new Promise<void>((resolve) => {
            const check = () =>
              performance.getEntriesByName(mark).length > before
                ? resolve()
                : setTimeout(check, 20);
            check();
          });
        },
        [count, MAP_FILTER_APPLIED_MARK] as const,
      );
    const url = () =>
      page.evaluate(
        (id) =>
          String(
            (
              document.querySelector('.fm-map') as unknown as {
                fieldmapMap: { map: { getSource(id: string): { _data: { url?: string } } } };
              }
            ).fieldmapMap.map.getSource(id)._data.url,
          ),
        CUSTOMER_SOURCE,
      );
    await filter(100);
    await h('idle');
    const narrow = await h('countRendered');
    expect(narrow.pins + narrow.clusteredPoints).toBe(100);
    const shown = parsePinsRequest(await url());
    expect(shown?.pins).toBeUndefined();
    expect(shown?.shown?.startsWith('blob:')).toBe(true);
    await filter(null);
    await h('idle');
    const reset = await h('countRendered');
    expect(reset.pins + reset.clusteredPoints).toBe(n);
    // Every pin of the set the worker keeps: no pin's JSON written again.
    expect(parsePinsRequest(await url())).toEqual({});
    expect(errors).toEqual([]);
  }); // 10,500 pins handed to the page, drawn three times in software GL
});

describe('a GeoJSON tile loaded twice at once', () => {
  it('sends the second load only once the first is applied, and every pin is still drawn', async () => {
    const customers = makeCustomers(600, 5, { box: [-10, 40, 10, 50] });
    const { page, h, errors } = await map.open({ customers });
    await h('idle');
    const result = await page.evaluate(async (id) => {
      type Tile = { state: string; abortController?: AbortController };
      const root = document.querySelector('.fm-map') as unknown as {
        fieldmapMap: {
          map: {
            getSource(id: string): { loadTile(tile: Tile): Promise<void> };
            style: {
              tileManagers: Record<
                string,
                { getRenderableIds(): string[]; getTileByID(id: string): Tile }
              >;
            };
          };
        };
      };
      const map = root.fieldmapMap.map;
      const tiles = map.style.tileManagers[id]!;
      const tile = tiles.getTileByID(tiles.getRenderableIds()[0]!);
      const source = map.getSource(id);
      const ticks = async () => {
        for (let i = 0; i < 10; i++) await Promise.resolve();
      };
      // MapLibre sets the tile's controller when it sends the load (a microtask in).
      const first = source.loadTile(tile);
      await ticks();
      const firstRequest = tile.abortController;
      const second = source.loadTile(tile);
      await ticks();
      // The first load's answer (a worker round trip) is not in yet: the second is not sent.
      const secondWaited = tile.abortController === firstRequest;
      const settled = await Promise.allSettled([first, second]);
      return {
        sent: firstRequest !== undefined,
        secondWaited,
        firstAborted: firstRequest?.signal.aborted ?? null,
        settled: settled.map((s) => s.status),
        state: tile.state,
      };
    }, CUSTOMER_SOURCE);
    expect(result).toEqual({
      sent: true,
      secondWaited: true,
      firstAborted: false,
      settled: ['fulfilled', 'fulfilled'],
      state: 'loaded',
    });
    await h('idle');
    const drawn = await h('countRendered');
    expect(drawn.pins + drawn.clusteredPoints).toBe(600);
    expect(errors).toEqual([]);
  });
});

/** A customer whose position reads are counted (building a pin reads it once). */
function counted(c: CustomerView, reads: { n: number }): CustomerView {
  const { position, ...rest } = c;
  return Object.defineProperty(rest, 'position', {
    enumerable: true,
    get: () => {
      reads.n++;
      return position;
    },
  }) as CustomerView;
}

function tableOf(customers: readonly CustomerView[]): PinTable {
  const built = buildPins(customers);
  const features = built.data.collection.features;
  return {
    ids: built.data.ids,
    featureIdOf: (id) => built.featureIds.get(id),
    current: (fid) => features[fid] ?? null,
    drawn: { customers: built.customers, fids: built.fids },
  };
}

describe('diffPins', () => {
  it('builds pins only for the records that are new objects (an edit, a create, a delete)', () => {
    const reads = { n: 0 };
    const before = makeCustomers(2000, 3, { box: [-10, 40, 10, 50] }).map((c) => counted(c, reads));
    const table = tableOf(before);
    const edited = counted({ ...before[10]!, color: 'edited' }, reads);
    const born = counted(customer({ id: 'zzz-new', latitude: 45, longitude: 1 }), reads);
    reads.n = 0;
    const after = [...before.slice(0, 10), edited, ...before.slice(11, 500), ...before.slice(501)];
    after.push(born);
    const patch = diffPins(after, table, 100)!;

    expect(reads.n).toBe(2);
    expect(patch.upserts.map((p) => p.properties.id)).toEqual([before[10]!.id, 'zzz-new']);
    expect(patch.upserts[0]!.properties.color).toBe('edited');
    expect(patch.removes).toEqual([table.featureIdOf(before[500]!.id)]);
    expect(patch.added).toEqual(['zzz-new']);
    // Each customer of the new list keeps its feature id for the next diff.
    expect(patch.fids[10]).toBe(table.featureIdOf(before[10]!.id));
    expect(patch.fids[after.length - 1]).toBe(table.ids.length);
  });
});
