// What the rep opened stays on the map beside the panel that shows it. Panels sit beside the map,
// so opening one narrows the map, and MapLibre keeps the centre: a pin in the right third, or a
// lasso's customers, slid out of view under the new panel. The map is also narrowed by a smaller
// window. When what is open changes, and after a resize that took it out of view, the view moves
// just enough: a pin comes to the centre, an area is fitted without zooming in. What the rep
// panned away from stays away, whatever resizes the map after (a window, a panel, a status line).
import type { Map as MapLibreMap } from 'maplibre-gl';
import type { LngLat } from '../../../src-shared';
import type { Bounds } from './layers/geojson';

/** What is open beside the map: a customer's pin, or the area of a selection or a plan. */
export type Kept = { kind: 'point'; at: LngLat } | { kind: 'area'; bounds: Bounds } | null;

const sameKept = (a: Kept, b: Kept): boolean =>
  a === null || b === null
    ? a === b
    : a.kind === 'point'
      ? b.kind === 'point' && a.at.every((v, i) => v === b.at[i])
      : b.kind === 'area' && a.bounds.every((v, i) => v === b.bounds[i]);

/** Pixels kept between what is open and the map's edge. */
export const KEEP_MARGIN = 40;

export class KeepInView {
  #kept: Kept = null;
  /** Where what is open was last kept while it has no place now (unplaced). */
  #placed: Kept = null;
  /** What is open was out of view when the map last came to rest: the rep moved away from it. */
  #away = false;

  constructor(
    private readonly map: MapLibreMap,
    private readonly margin = KEEP_MARGIN,
  ) {
    map.on('resize', this.#resized);
    map.on('moveend', this.#rested);
  }

  /**
   * What is open now (null: nothing); brought into view if it is not. The same again (the data
   * changed around it) does not move the map: the rep may have panned away on purpose.
   */
  set(kept: Kept): void {
    if (kept === null) this.#placed = null;
    if (sameKept(kept, this.#kept)) return;
    const again = kept !== null && this.#kept === null && sameKept(kept, this.#placed);
    this.#kept = kept;
    this.#placed = null;
    if (again) return;
    this.#away = false;
    this.#check();
  }

  /**
   * What is open has no place on the map for now (a pin not drawn yet, or drawn under a new
   * id: a create's temporary id became the service's). It comes into view once it has one,
   * unless that is where it was: the rep may have panned away since.
   */
  unplaced(): void {
    if (this.#kept !== null) this.#placed = this.#kept;
    this.#kept = null;
  }

  destroy(): void {
    this.map.off('resize', this.#resized);
    this.map.off('moveend', this.#rested);
    this.map.off('moveend', this.#check);
  }

  /** True when the point is on the map at least `margin` pixels inside its edges. */
  #inside(at: LngLat): boolean {
    const { x, y } = this.map.project(at);
    const canvas = this.map.getCanvas();
    const width = canvas.clientWidth;
    const height = canvas.clientHeight;
    const m = Math.min(this.margin, width / 4, height / 4);
    return x >= m && x <= width - m && y >= m && y <= height - m;
  }

  /** True when all of what is kept is in view. */
  #inView(kept: Exclude<Kept, null>): boolean {
    if (kept.kind === 'point') return this.#inside(kept.at);
    const [west, south, east, north] = kept.bounds;
    return this.#inside([west, north]) && this.#inside([east, south]);
  }

  #rested = (): void => {
    const kept = this.#kept ?? this.#placed;
    this.#away = kept !== null && !this.#inView(kept);
  };

  #resized = (): void => {
    if (!this.#away) this.#check();
  };

  #check = (): void => {
    const kept = this.#kept;
    if (kept === null) return;
    // A flight on its way (to the customer chosen in the list) is judged where it lands.
    if (this.map.isMoving()) {
      this.map.off('moveend', this.#check);
      this.map.once('moveend', this.#check);
      return;
    }
    if (this.#inView(kept)) return;
    if (kept.kind === 'point') {
      this.map.easeTo({ center: kept.at });
      return;
    }
    // Zoomed out only as far as the area needs; never in (the rep chose the zoom).
    this.map.fitBounds(kept.bounds, {
      padding: Math.min(this.margin, this.map.getCanvas().clientWidth / 4),
      maxZoom: this.map.getZoom(),
    });
  };
}
