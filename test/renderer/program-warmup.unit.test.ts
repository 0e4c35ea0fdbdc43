// The warm-up's copies of the overlays' layers (map/program-warmup.ts): transparent in every
// colour, of the very form of the layer they stand for, one per form, no text.
import { describe, expect, it } from 'vitest';
import type { LayerSpecification } from 'maplibre-gl';
import { WARM_PREFIX, WARM_SOURCE, warmSpecs } from '../../src-renderer/src/map/program-warmup';
import { bundledGroundLayers } from '../../src-renderer/src/map/style/bundled-layers';
import { PALETTES } from '../../src-renderer/src/map/style/palette';
import {
  customerLayerSpecs,
  recentLayerSpecs,
} from '../../src-renderer/src/map/layers/customer-layer-specs';
import { territoryLayerSpecs } from '../../src-renderer/src/map/layers/territory-layer';
import { routeLayerSpecs } from '../../src-renderer/src/map/layers/route-layer';

const LABELS = { font: ['Noto Sans Regular'] };
const DATA = new Set(['get', 'has', 'feature-state', 'properties', 'id', 'geometry-type']);

/** Whether a paint value reads the feature (MapLibre then keys the program by an attribute). */
const dataDriven = (v: unknown): boolean =>
  Array.isArray(v) && ((typeof v[0] === 'string' && DATA.has(v[0])) || v.some(dataDriven));

/** Every colour literal in a paint value (what it can give). */
const colours = (v: unknown): string[] =>
  typeof v === 'string'
    ? /^(#|rgb|hsl)/.test(v)
      ? [v]
      : []
    : Array.isArray(v)
      ? v.slice(1).flatMap(colours)
      : [];

const paintOf = (l: LayerSpecification) =>
  ('paint' in l ? (l.paint ?? {}) : {}) as Record<string, unknown>;

describe('warmSpecs', () => {
  const specs = [
    ...customerLayerSpecs(LABELS),
    ...recentLayerSpecs(LABELS),
    ...territoryLayerSpecs(LABELS),
    ...routeLayerSpecs(LABELS),
  ];
  const warm = warmSpecs(specs);

  it('copies each circle, fill and line form once, from its own source, with no filter or zoom range', () => {
    expect(warm.map((l) => l.type).sort()).toEqual(['circle', 'circle', 'circle', 'fill', 'line']);
    for (const l of warm) {
      expect(l).toMatchObject({ source: WARM_SOURCE });
      expect(l).not.toHaveProperty('filter');
      expect(l).not.toHaveProperty('minzoom');
    }
  });

  it('draws nothing: every colour it can give is transparent, its colours unset too', () => {
    for (const l of warm) {
      const paint = paintOf(l);
      const keys = Object.keys(paint).filter((k) => k.endsWith('-color'));
      expect(keys.length).toBeGreaterThan(0);
      for (const k of keys) expect(new Set(colours(paint[k]))).toEqual(new Set(['rgba(0,0,0,0)']));
    }
    const pins = warm.find((l) => l.id.endsWith('fm-customers-pins'))!;
    expect(Object.keys(paintOf(pins))).toContain('circle-stroke-color');
  });

  it('tells apart what links another program: a fill with no outline, a dashed line', () => {
    const base = bundledGroundLayers(PALETTES.light);
    const copies = warmSpecs([...territoryLayerSpecs(LABELS), ...base]);
    expect(copies.map((l) => l.id.slice(WARM_PREFIX.length))).toEqual([
      'fm-territories-fill',
      'fm-territories-outline',
      'basemap-land',
      'basemap-state-borders',
    ]);
  });

  it('keeps which paint properties read the feature, so it links the layer’s own program', () => {
    for (const l of warm) {
      const original = specs.find((s) => l.id.endsWith(s.id))!;
      const before = paintOf(original);
      const after = paintOf(l);
      for (const k of Object.keys(before))
        expect([k, dataDriven(after[k])]).toEqual([k, dataDriven(before[k])]);
    }
  });
});
