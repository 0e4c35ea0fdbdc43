// Picking a position on the map for the customer editor: a crosshair click sets it, and a
// draggable marker shows (and moves) the position being edited.
import { Marker, type Map as MapLibreMap, type MapMouseEvent } from 'maplibre-gl';
import { text } from '../text';

/** Until the returned function is called, a click on the map reports its position. */
export function pickPositionOnClick(
  map: MapLibreMap,
  onPick: (lat: number, lng: number) => void,
): () => void {
  const canvas = map.getCanvasContainer();
  canvas.classList.add('fm-picking');
  const handler = (e: MapMouseEvent) => onPick(e.lngLat.lat, e.lngLat.lng);
  map.on('click', handler);
  return () => {
    map.off('click', handler);
    canvas.classList.remove('fm-picking');
  };
}

/** A draggable marker at the edited position; null position hides it. */
export class PositionMarker {
  #marker: Marker;
  #shown = false;

  constructor(
    private readonly map: MapLibreMap,
    onMove: (lat: number, lng: number) => void,
  ) {
    this.#marker = new Marker({ draggable: true, color: '#d97706' });
    this.#marker.getElement().setAttribute('aria-label', text.positionPicker);
    this.#marker.on('dragend', () => {
      const { lat, lng } = this.#marker.getLngLat();
      onMove(lat, lng);
    });
  }

  set(position: { lat: number; lng: number } | null): void {
    if (position === null) {
      if (this.#shown) this.#marker.remove();
      this.#shown = false;
      return;
    }
    this.#marker.setLngLat(position);
    if (!this.#shown) this.#marker.addTo(this.map);
    this.#shown = true;
  }

  destroy(): void {
    this.#marker.remove();
  }
}
