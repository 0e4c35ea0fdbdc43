// The offline basemap: buildBaseStyle() is the base style MapView draws Fieldmap's layers on.
// Bundled world layer (always, no network), then the online style's layers (when configured,
// through main's tile cache), then PMTiles regions, then the bundled labels.
import type { StyleSpecification } from 'maplibre-gl';
import { bundledGroundLayers, bundledLabelLayers, bundledSources } from './bundled-layers';
import type { OnlineBase } from './online-style';
import { PALETTES, type BasemapTheme } from './palette';
import { registerPmtilesProtocol, regionSpecs, type RegionSource } from './regions';

export { applyRegions, registerPmtilesProtocol, type RegionSource } from './regions';
export { cachedUrl, loadOnlineStyle, type OnlineBase } from './online-style';
export { BASEMAP_LAYER, FIRST_LABEL_LAYER } from './bundled-layers';
export { BUNDLED_ATTRIBUTION, REGION_ATTRIBUTION } from './attribution';
export { FONT_BOLD, FONT_REGULAR, PALETTES, type BasemapTheme } from './palette';

export interface BaseStyleOptions {
  theme?: BasemapTheme;
  regions?: readonly RegionSource[];
  /** The online style, already loaded and rewritten by loadOnlineStyle (a style URL cannot be read synchronously). */
  online?: OnlineBase | null;
  /** Where public/ is served, ending in '/'; default: the folder of the current document. */
  assetBase?: string;
}

/** The app's folder: app://fieldmap/ in Electron, the runner's origin in Chromium. */
export function defaultAssetBase(): string {
  return new URL('./', document.baseURI).href;
}

/** The base style: bundled world layer, online style, regions, labels. Renders with no network. */
export function buildBaseStyle(options: BaseStyleOptions = {}): StyleSpecification {
  const theme = options.theme ?? 'light';
  const assetBase = options.assetBase ?? defaultAssetBase();
  const palette = PALETTES[theme];
  const style: StyleSpecification = {
    version: 8,
    name: `Fieldmap offline (${theme})`, // a name, not text
    // Braces must stay literal for MapLibre to fill them in.
    glyphs: `${assetBase}glyphs/{fontstack}/{range}.pbf`,
    sources: bundledSources(assetBase),
    layers: bundledGroundLayers(palette),
  };
  if (options.online) {
    Object.assign(style.sources, options.online.sources);
    style.layers.push(...options.online.layers);
  }
  if (options.regions && options.regions.length > 0) {
    registerPmtilesProtocol();
    for (const region of options.regions) {
      const specs = regionSpecs(region, theme, assetBase);
      Object.assign(style.sources, specs.sources);
      style.layers.push(...specs.layers);
    }
  }
  style.layers.push(...bundledLabelLayers(palette));
  return style;
}
