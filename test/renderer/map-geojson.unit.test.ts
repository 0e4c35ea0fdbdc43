// The map's pure modules in Node: GeoJSON building, label points, the palette expression,
// and label layers following the base style's glyphs.
import { describe, expect, it } from 'vitest';
import { PALETTE, type Route, type Territory } from '../../src-shared';
import { minimalBaseStyle } from '../../src-renderer/src/map/style/base-style';
import { COLOR_HEX, FALLBACK_HEX } from '../../src-shared/palette';
import { colorMatchExpression, legendEntries } from '../../src-renderer/src/map/style/colors';
import {
  CUSTOMER_LAYER,
  customerLayerSpecs,
} from '../../src-renderer/src/map/layers/customer-layer';
import {
  customerFeatures,
  labelPoint,
  routeFeatures,
  territoryFeatures,
} from '../../src-renderer/src/map/layers/geojson';
import { groupOfLayer } from '../../src-renderer/src/map/layers/layer-toggles';
import { composeStyle, labelOptionsOf } from '../../src-renderer/src/map/style/map-style';
import { ROUTE_LAYER, routeLayerSpecs } from '../../src-renderer/src/map/layers/route-layer';
import {
  TERRITORY_LAYER,
  territoryLayerSpecs,
} from '../../src-renderer/src/map/layers/territory-layer';
import { customer } from './map-fixtures/customers';

const STAMP = { date: '2026-01-01 00:00:00', timezone_type: 3, timezone: 'UTC' };

describe('map GeoJSON', () => {
  it('keeps only mapped customers, as [lng, lat], with numeric ids indexing the id table', () => {
    const list = [
      customer({ id: 'a', latitude: 48.85, longitude: 2.35 }),
      customer({ id: 'nul', latitude: null, longitude: null }),
      customer({ id: 'zero', latitude: 0, longitude: 0 }),
      customer({ id: 'b', latitude: -33.9, longitude: 151.2, color: 'neon red' }, true),
    ];
    const data = customerFeatures(list);
    expect(data.ids).toEqual(['a', 'b']);
    expect(data.collection.features.map((f) => [f.id, f.geometry.coordinates])).toEqual([
      [0, [2.35, 48.85]],
      [1, [151.2, -33.9]],
    ]);
    expect(data.collection.features[1]?.properties).toEqual({
      id: 'b',
      name: 'Customer b',
      color: 'neon red',
      pending: true,
      age: 'never',
      due: 'none',
    });
    expect(data.bounds).toEqual([2.35, -33.9, 151.2, 48.85]);
    expect(customerFeatures([list[1]!]).bounds).toBeNull();
  });

  it('turns "lat,lng" points into ordered lines, closed polygons and numbered stops, skipping bad points', () => {
    const route: Route = {
      id: 'r',
      name: 'R',
      points: ['48,2', 'junk', '48,4', '91,0', '50,4'],
      createdAt: STAMP,
      updatedAt: STAMP,
    };
    const { lines, stops } = routeFeatures([route, { ...route, id: 'short', points: ['1,1'] }]);
    expect(lines.features.map((f) => f.geometry.coordinates)).toEqual([
      [
        [2, 48],
        [4, 48],
        [4, 50],
      ],
    ]);
    expect(stops.features.map((f) => [f.properties.routeId, f.properties.stop])).toEqual([
      ['r', 1],
      ['r', 2],
      ['r', 3],
      ['short', 1],
    ]);
    const territory: Territory = { ...route, id: 't', points: ['0,1', '1,1', '1,0'] };
    const polygons = territoryFeatures([
      territory,
      { ...territory, id: 'line', points: ['0,1', '1,1'] },
    ]);
    expect(polygons.features.map((f) => f.properties.id)).toEqual(['t']);
    expect(polygons.features[0]?.geometry.coordinates[0]).toEqual([
      [1, 0],
      [1, 1],
      [0, 1],
      [1, 0],
    ]);
  });

  it('puts a territory label inside the polygon, also for a concave one', () => {
    const square: [number, number][] = [
      [0, 0],
      [2, 0],
      [2, 2],
      [0, 2],
      [0, 0],
    ];
    expect(labelPoint(square)).toEqual([1, 1]);
    // A "U": the centroid falls in the notch; the label must land on one of the arms.
    const u: [number, number][] = [
      [0, 0],
      [3, 0],
      [3, 3],
      [2, 3],
      [2, 1],
      [1, 1],
      [1, 3],
      [0, 3],
      [0, 0],
    ];
    const [x, y] = labelPoint(u);
    expect(y).toBeGreaterThan(1);
    expect(x < 1 || x > 2).toBe(true);
  });
});

describe('map style', () => {
  it('colours every palette name, neon included, and falls back for others', () => {
    const expr = colorMatchExpression() as unknown[];
    expect(expr[0]).toBe('match');
    expect(expr.at(-1)).toBe(FALLBACK_HEX);
    for (const name of PALETTE) expect(expr[expr.indexOf(name) + 1]).toBe(COLOR_HEX[name]);
    expect(new Set(Object.values(COLOR_HEX)).size).toBe(PALETTE.length);
    expect(legendEntries(['red', 'mauve']).map((e) => [e.name, e.hex, e.known])).toEqual([
      ['red', COLOR_HEX.red, true],
      ['mauve', FALLBACK_HEX, false],
    ]);
    expect(legendEntries().map((e) => e.name)).toEqual([...PALETTE]);
  });

  it('adds text layers only when the base style has glyphs, with its font', () => {
    const bare = minimalBaseStyle();
    expect(labelOptionsOf(bare)).toBeNull();
    const noText = [
      ...customerLayerSpecs(null),
      ...routeLayerSpecs(null),
      ...territoryLayerSpecs(null),
    ];
    expect(noText.filter((l) => l.type === 'symbol')).toEqual([]);
    const withGlyphs = {
      ...bare,
      glyphs: 'fieldmap://glyphs/{fontstack}/{range}.pbf',
      sources: {
        land: {
          type: 'geojson' as const,
          data: { type: 'FeatureCollection' as const, features: [] },
        },
      },
      layers: [
        ...bare.layers,
        {
          id: 'place',
          type: 'symbol' as const,
          source: 'land',
          layout: { 'text-font': ['Noto Sans Medium'] },
        },
      ],
    };
    const labels = labelOptionsOf(withGlyphs);
    expect(labels).toEqual({ font: ['Noto Sans Medium'] });
    const layers = [
      ...territoryLayerSpecs(labels),
      ...routeLayerSpecs(labels),
      ...customerLayerSpecs(labels),
    ];
    const symbolIds = layers.filter((l) => l.type === 'symbol').map((l) => l.id);
    expect(symbolIds.sort()).toEqual(
      [
        CUSTOMER_LAYER.clusterCounts,
        CUSTOMER_LAYER.names,
        ROUTE_LAYER.stopNumbers,
        TERRITORY_LAYER.names,
      ].sort(),
    );
    const style = composeStyle(withGlyphs, { sources: {}, layers });
    expect(style.glyphs).toBe(withGlyphs.glyphs);
    expect(style.layers.slice(0, 2).map((l) => l.id)).toEqual(['background', 'place']);
    // Every overlay layer belongs to a toggle group.
    expect(layers.every((l) => groupOfLayer(l.id) !== null)).toBe(true);
  });
});
