// The map's style: the base (basemap) style with Fieldmap's sources and layers on top.
// Label layers need glyphs; they are only added when the base style declares a glyphs URL.
import type { LayerSpecification, SourceSpecification, StyleSpecification } from 'maplibre-gl';

/** How text labels are drawn, or null when the base style has no glyphs (no labels then). */
export type LabelOptions = { font: string[] } | null;

const DEFAULT_FONT = ['Noto Sans Regular']; // a name, not text

/** Label settings from the base style: its glyphs decide whether labels exist, its first text font is reused. */
export function labelOptionsOf(base: StyleSpecification): LabelOptions {
  if (!base.glyphs) return null;
  for (const layer of base.layers) {
    if (layer.type !== 'symbol') continue;
    const font = layer.layout?.['text-font'];
    if (Array.isArray(font) && font.every((f) => typeof f === 'string'))
      return { font: font as string[] };
  }
  return { font: DEFAULT_FONT };
}

/** The base style plus the overlay sources and layers (drawn above every base layer). */
export function composeStyle(
  base: StyleSpecification,
  overlay: { sources: Record<string, SourceSpecification>; layers: LayerSpecification[] },
): StyleSpecification {
  return {
    ...base,
    sources: { ...base.sources, ...overlay.sources },
    layers: [...base.layers, ...overlay.layers],
  };
}
