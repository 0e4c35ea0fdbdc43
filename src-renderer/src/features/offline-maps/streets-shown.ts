// Whether the map shows streets where the rep looks: a street layer (the online style's or an
// offline region's) has drawn a feature at one of a few points of the view. Point queries read
// only the tiles under them, so this stays cheap on a dense city; the bundled world layer alone
// at city zoom is blank ground, which the map then says how to fix (NoStreetsHint.svelte).
import type { Map as MapLibreMap } from 'maplibre-gl';

/** Below this zoom the bundled world layer (countries, states, cities) is the map. */
export const STREETS_ZOOM = 9;

const STREET_LAYER = /^(online:|region-)/;
const SAMPLES = [0.2, 0.5, 0.8];

/** True when the view is at street zoom and no street layer drew anything at the sample points. */
export function streetsMissing(map: MapLibreMap): boolean {
  if (map.getZoom() < STREETS_ZOOM) return false;
  const layers = map.getLayersOrder().filter((id) => STREET_LAYER.test(id));
  if (layers.length === 0) return true;
  const canvas = map.getCanvas();
  for (const fx of SAMPLES)
    for (const fy of SAMPLES) {
      const at: [number, number] = [canvas.clientWidth * fx, canvas.clientHeight * fy];
      if (map.queryRenderedFeatures(at, { layers }).length > 0) return false;
    }
  return true;
}
