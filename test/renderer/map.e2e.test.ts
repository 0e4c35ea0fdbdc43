// The map in real Chromium: pin counts, lat/lng order, colours, territories, routes, toggles.
import { describe, expect, it } from 'vitest';
import { PALETTE, type Route, type Territory } from '../../src-shared';
import { COLOR_HEX, FALLBACK_HEX } from '../../src-shared/palette';
import { CUSTOMER_LAYER, PENDING_STROKE } from '../../src-renderer/src/map/layers/customer-layer';
import { MAP_DRAWN_MARK } from '../../src-renderer/src/map/drawn-mark';
import type { MapController } from '../../src-renderer/src/map/map-controller';
import { ROUTE_LAYER } from '../../src-renderer/src/map/layers/route-layer';
import { TERRITORY_LAYER } from '../../src-renderer/src/map/layers/territory-layer';
import { customer, makeCustomers, STAMP } from './map-fixtures/customers';
import { mapHarness } from './map-fixtures/session';

const PINS = [CUSTOMER_LAYER.pins, CUSTOMER_LAYER.clusters];

const map = mapHarness();

function rgbOf(hex: string): [number, number, number] {
  const n = parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

function expectColor(actual: number[], hex: string, tolerance = 10): void {
  const want = rgbOf(hex);
  for (let i = 0; i < 3; i++)
    expect(Math.abs((actual[i] as number) - want[i]!), `${actual} vs ${hex}`).toBeLessThanOrEqual(
      tolerance,
    );
}

describe('MapView in Chromium', () => {
  it('draws every mapped customer exactly once and never the unmapped ones', async () => {
    const customers = makeCustomers(1000, 7, {
      unmappedNull: 0.05,
      unmappedZero: 0.03,
      box: [-10, 40, 20, 55],
    });
    const mapped = customers.filter((c) => c.position !== null);
    expect(mapped.length).toBeLessThan(960);
    expect(mapped.length).toBeGreaterThan(880);
    const { page, h } = await map.open({ customers });
    const counts = await h('countRendered');
    expect(counts.clusters).toBeGreaterThan(0);
    expect(counts.pins + counts.clusteredPoints).toBe(mapped.length);
    // The same count through the hook end-to-end tests use, and the drawn mark the benchmark uses.
    const viaElement = await page
      .locator('.fm-map')
      .evaluate((el) =>
        (el as unknown as { fieldmapMap: MapController }).fieldmapMap.renderedCustomerCount(),
      );
    expect(viaElement).toBe(mapped.length);
    const marks = await page.evaluate(
      (name) =>
        performance.getEntriesByName(name).map((e) => (e as unknown as { detail: unknown }).detail),
      MAP_DRAWN_MARK,
    );
    expect(marks).toEqual([{ customers: mapped.length }]);
    // Zoomed in to street level over part of the area, every pin drawn is a mapped customer.
    await h('jumpTo', [5, 47.5], 15);
    const street = await h('countRendered');
    const mappedIds = new Set(mapped.map((c) => c.id));
    expect(street.pinIds.every((id) => mappedIds.has(id))).toBe(true);
    // Nothing at null island, although 3% of the customers are stored as 0,0.
    await h('jumpTo', [0, 0], 4);
    expect(await h('renderedAt', 0, 0, PINS, 40)).toEqual([]);
    expect((await h('countRendered')).pins).toBe(0);
    await page.close();
  });

  it('puts a customer at latitude 48.85, longitude 2.35 on Paris, not off Somalia', async () => {
    const paris = customer({ id: 'paris', name: 'Paris', latitude: 48.85, longitude: 2.35 });
    const { page, h } = await map.open({ customers: [paris] });
    await h('jumpTo', [20, 25], 2);
    const [x, y] = await h('project', 2.35, 48.85);
    expect(x).toBeGreaterThan(0);
    expect(y).toBeGreaterThan(0);
    const atParis = await h('renderedAt', 2.35, 48.85, PINS);
    expect(atParis.map((f) => f.props['id'])).toEqual(['paris']);
    // The swapped order (lng 48.85, lat 2.35) is on the Somali coast: nothing there.
    expect(await h('renderedAt', 48.85, 2.35, PINS, 20)).toEqual([]);
    await page.close();
  });

  it('colours pins by color name over the whole palette, neon included, with a fallback', async () => {
    const names = [...PALETTE, 'no-such-color'];
    // A 4x4 grid of pins, far enough apart never to cluster at zoom 8.
    const at = (i: number): [number, number] => [-10 + (i % 4) * 0.3, 45 + Math.floor(i / 4) * 0.3];
    const customers = names.map((color, i) =>
      customer({ id: `k${i}`, color, longitude: at(i)[0], latitude: at(i)[1] }),
    );
    const { page, h } = await map.open({ customers });
    await h('jumpTo', [-9.55, 45.45], 8);
    expect((await h('countRendered')).pins).toBe(names.length);
    for (const [i, color] of names.entries()) {
      const hex = color in COLOR_HEX ? COLOR_HEX[color as keyof typeof COLOR_HEX] : FALLBACK_HEX;
      expectColor(await h('pixelAt', ...at(i)), hex);
    }
    // The legend lists the palette.
    const legend = await page.locator('.fm-map-legend li').allTextContents();
    expect(legend.map((t) => t.trim())).toEqual([...PALETTE]);
    await page.close();
  });

  it('draws pending customers with a distinct stroke', async () => {
    const customers = [
      customer({ id: 'synced', color: 'blue', latitude: 45, longitude: 0 }),
      customer({ id: 'pending', color: 'blue', latitude: 45, longitude: 1 }, true),
    ];
    const { page, h } = await map.open({ customers });
    await h('jumpTo', [0.5, 45], 8);
    // 7 px right of the centre is in the stroke ring (radius 6, stroke 1.5-2.5 px outside it).
    const pendingRing = await h('pixelAt', 1, 45, 7);
    const syncedRing = await h('pixelAt', 0, 45, 7);
    expectColor(await h('pixelAt', 1, 45), COLOR_HEX.blue);
    expectColor(pendingRing, PENDING_STROKE, 40);
    expectColor(syncedRing, '#ffffff', 40);
    await page.close();
  });

  it('draws territories as fills and routes as lines through their points in order', async () => {
    // API points are "<latitude>,<longitude>".
    const territory: Territory = {
      id: 't1',
      name: 'Berlin <b>Mitte</b>',
      points: ['52.4,13.2', '52.4,13.6', '52.6,13.6', '52.6,13.2'],
      createdAt: STAMP,
      updatedAt: STAMP,
    };
    const route: Route = {
      id: 'r1',
      name: 'Tour',
      points: ['48.0,2.0', '48.0,4.0', '50.0,4.0'],
      createdAt: STAMP,
      updatedAt: STAMP,
    };
    const { page, h } = await map.open({
      territories: [territory],
      routes: [route],
    });
    await h('jumpTo', [8, 50], 5);
    const inside = await h('renderedAt', 13.4, 52.5, [TERRITORY_LAYER.fill]);
    expect(inside.map((f) => f.props['name'])).toEqual(['Berlin <b>Mitte</b>']);
    expect(await h('renderedAt', 52.5, 13.4, [TERRITORY_LAYER.fill], 10)).toEqual([]);
    const outline = await h('renderedAt', 13.2, 52.5, [TERRITORY_LAYER.outline]);
    expect(outline.length).toBeGreaterThan(0);
    // Segments A-B and B-C exist; A-C does not (the route is not closed or reordered).
    const lines = [ROUTE_LAYER.lines];
    expect((await h('renderedAt', 3, 48, lines)).map((f) => f.props['id'])).toEqual(['r1']);
    expect((await h('renderedAt', 4, 49, lines)).map((f) => f.props['id'])).toEqual(['r1']);
    expect(await h('renderedAt', 3, 49, lines, 2)).toEqual([]);
    const stops = [ROUTE_LAYER.stops];
    expect((await h('renderedAt', 2, 48, stops)).map((f) => f.props['stop'])).toEqual([1]);
    expect((await h('renderedAt', 4, 48, stops)).map((f) => f.props['stop'])).toEqual([2]);
    expect((await h('renderedAt', 4, 50, stops)).map((f) => f.props['stop'])).toEqual([3]);
    // The minimal base style has no glyphs: no text layers, so nothing waits on missing fonts.
    const ids = await h('layerIds');
    expect(ids).not.toContain(ROUTE_LAYER.stopNumbers);
    expect(ids).not.toContain(TERRITORY_LAYER.names);
    expect(ids).not.toContain(CUSTOMER_LAYER.clusterCounts);
    await page.close();
  });

  it('hides and shows each layer group from its toggle', async () => {
    const territory: Territory = {
      id: 't1',
      name: 'Square',
      points: ['44.5,-0.5', '44.5,0.5', '45.5,0.5', '45.5,-0.5'],
      createdAt: STAMP,
      updatedAt: STAMP,
    };
    const route: Route = {
      id: 'r1',
      name: 'R',
      points: ['46,0', '46,2'],
      createdAt: STAMP,
      updatedAt: STAMP,
    };
    const customers = [customer({ id: 'a', latitude: 45, longitude: 0 })];
    const { page, h } = await map.open({
      customers,
      territories: [territory],
      routes: [route],
    });
    await h('jumpTo', [0.5, 45.5], 6);
    const visibleNow = async () => ({
      customers: (await h('renderedAt', 0, 45, [CUSTOMER_LAYER.pins])).length,
      territories: (await h('renderedAt', 0.3, 44.8, [TERRITORY_LAYER.fill])).length,
      routes: (await h('renderedAt', 1, 46, [ROUTE_LAYER.lines])).length,
    });
    expect(await visibleNow()).toEqual({ customers: 1, territories: 1, routes: 1 });
    for (const [label, group] of [
      ['Customers', 'customers'],
      ['Territories', 'territories'],
      ['Routes', 'routes'],
    ] as const) {
      await page.getByLabel(label).uncheck();
      await h('idle');
      const now = await visibleNow();
      expect(now[group]).toBe(0);
      await page.getByLabel(label).check();
      await h('idle');
      expect(await visibleNow()).toEqual({ customers: 1, territories: 1, routes: 1 });
    }
    expect(await h('visibility', CUSTOMER_LAYER.clusters)).toBe('visible');
    await page.close();
  });
});
