// Drawing an area on the map with terra-draw: a lasso (freehand) or a box to select customers, a
// polygon (click the corners, click the first one or press Enter to close) for an area to
// download. The drawing is cleared as soon as it is finished: only the ring is reported.
import type { Map as MapLibreMap } from 'maplibre-gl';
import {
  TerraDraw,
  TerraDrawFreehandMode,
  TerraDrawPolygonMode,
  TerraDrawRectangleMode,
} from 'terra-draw';
import { TerraDrawMapLibreGLAdapter } from 'terra-draw-maplibre-gl-adapter';
import type { LngLat } from '../../../../src-shared';

export type AreaMode = 'lasso' | 'box' | 'polygon';

/**
 * On the map's canvas container while an area is being drawn: a click there draws, so the map's
 * own click (open a pin's popup, zoom into a cluster) stands aside (map-controller.ts).
 */
export const DRAWING_CLASS = 'fm-drawing';

const TERRA_MODE: Record<AreaMode, string> = {
  lasso: 'freehand',
  box: 'rectangle',
  polygon: 'polygon',
};

export class AreaSelect {
  #draw: TerraDraw | null = null;
  #pending: AreaMode | null = null;
  #disposed = false;

  constructor(
    private readonly map: MapLibreMap,
    private readonly onArea: (ring: LngLat[]) => void,
  ) {}

  /** Starts drawing in a mode; null stops. */
  setMode(mode: AreaMode | null): void {
    if (mode === null) {
      this.#stop();
      return;
    }
    this.map.getCanvasContainer().classList.add(DRAWING_CLASS);
    if (this.#draw) {
      this.#draw.setMode(TERRA_MODE[mode]);
      return;
    }
    this.#pending = mode;
    this.#whenStyleParsed();
  }

  /**
   * terra-draw's adapter adds sources and layers: the style must be parsed first. Not
   * isStyleLoaded(), which stays false while any tile is loading, nor 'load', which fires once.
   */
  #whenStyleParsed(): void {
    if (this.map.getStyle()) this.#start();
    else this.map.once('styledata', () => this.#whenStyleParsed());
  }

  #start(): void {
    const mode = this.#pending;
    if (this.#disposed || mode === null || this.#draw) return;
    const draw = new TerraDraw({
      adapter: new TerraDrawMapLibreGLAdapter({ map: this.map }),
      modes: [
        new TerraDrawFreehandMode(),
        new TerraDrawRectangleMode(),
        new TerraDrawPolygonMode(),
      ],
    });
    draw.start();
    draw.setMode(TERRA_MODE[mode]);
    draw.on('finish', (id) => {
      const feature = draw.getSnapshotFeature(id);
      draw.clear();
      if (feature?.geometry.type !== 'Polygon') return;
      const ring = (feature.geometry.coordinates[0] ?? []).map((p) => [p[0]!, p[1]!] as LngLat);
      this.onArea(ring);
    });
    this.#draw = draw;
  }

  #stop(): void {
    this.#pending = null;
    this.map.getCanvasContainer().classList.remove(DRAWING_CLASS);
    if (!this.#draw) return;
    this.#draw.stop();
    this.#draw = null;
  }

  destroy(): void {
    this.#disposed = true;
    this.#stop();
  }
}
