// Selecting customers on the map by drawing a lasso (freehand) or a box, with terra-draw. The
// drawing is cleared as soon as it is finished: only the ring is reported.
import type { Map as MapLibreMap } from 'maplibre-gl';
import { TerraDraw, TerraDrawFreehandMode, TerraDrawRectangleMode } from 'terra-draw';
import { TerraDrawMapLibreGLAdapter } from 'terra-draw-maplibre-gl-adapter';
import type { LngLat } from '../../../../src-shared';

export type AreaMode = 'lasso' | 'box';

const TERRA_MODE: Record<AreaMode, string> = { lasso: 'freehand', box: 'rectangle' };

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
    if (this.#draw) {
      this.#draw.setMode(TERRA_MODE[mode]);
      return;
    }
    this.#pending = mode;
    // terra-draw's adapter adds sources and layers: the style must be loaded first.
    if (this.map.isStyleLoaded()) this.#start();
    else this.map.once('load', () => this.#start());
  }

  #start(): void {
    const mode = this.#pending;
    if (this.#disposed || mode === null || this.#draw) return;
    const draw = new TerraDraw({
      adapter: new TerraDrawMapLibreGLAdapter({ map: this.map }),
      modes: [new TerraDrawFreehandMode(), new TerraDrawRectangleMode()],
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
    if (!this.#draw) return;
    this.#draw.stop();
    this.#draw = null;
  }

  destroy(): void {
    this.#disposed = true;
    this.#stop();
  }
}
