// Puts the online style's layers into a running map (or takes them out), between the bundled
// ground layers and the regions, as buildBaseStyle orders them: no style rebuild, so the
// customers' layers and their state stay as they are.
import type { Map as MapLibreMap } from 'maplibre-gl';
import { FIRST_LABEL_LAYER, type OnlineBase } from '../../map/style/basemap-style';

const ONLINE_LAYER = 'online:';
const ONLINE_SOURCE = 'online-';
const REGION_SOURCE = 'region-';

export function applyOnline(map: MapLibreMap, online: OnlineBase | null): void {
  const style = map.getStyle();
  for (const layer of style.layers) {
    if (layer.id.startsWith(ONLINE_LAYER)) map.removeLayer(layer.id);
  }
  for (const id of Object.keys(style.sources)) {
    if (id.startsWith(ONLINE_SOURCE)) map.removeSource(id);
  }
  if (!online) return;
  const firstRegion = map
    .getStyle()
    .layers.find(
      (l) => 'source' in l && typeof l.source === 'string' && l.source.startsWith(REGION_SOURCE),
    );
  const before =
    firstRegion?.id ?? (map.getLayer(FIRST_LABEL_LAYER) ? FIRST_LABEL_LAYER : undefined);
  for (const [id, spec] of Object.entries(online.sources)) map.addSource(id, spec);
  for (const layer of online.layers) map.addLayer(layer, before);
}
