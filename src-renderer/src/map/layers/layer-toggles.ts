// Per-group visibility: each toggle in the UI shows or hides every layer of one group.
import type { Map as MapLibreMap } from 'maplibre-gl';

export const LAYER_GROUPS = ['customers', 'territories', 'routes'] as const;
export type LayerGroup = (typeof LAYER_GROUPS)[number];
export type LayerVisibility = Record<LayerGroup, boolean>;

export const ALL_VISIBLE: LayerVisibility = { customers: true, territories: true, routes: true };

/** The group a Fieldmap layer id belongs to (ids are `fm-<group>-<part>`). */
export function groupOfLayer(layerId: string): LayerGroup | null {
  const group = layerId.split('-')[1];
  return (LAYER_GROUPS as readonly string[]).includes(group ?? '') ? (group as LayerGroup) : null;
}

/** Shows or hides the layers of a group among `layerIds` (the overlay's own layers). */
export function setGroupVisible(
  map: MapLibreMap,
  layerIds: readonly string[],
  group: LayerGroup,
  visible: boolean,
): void {
  const value = visible ? 'visible' : 'none';
  for (const id of layerIds) {
    if (groupOfLayer(id) === group && map.getLayer(id))
      map.setLayoutProperty(id, 'visibility', value);
  }
}
