// What the map test page exposes as `globalThis.harness` (Node-side view: no DOM types).
import type { Route, Territory } from '../../../src-shared';
import type { CustomerView, FocusRequest } from '../../../src-renderer/src/types';
import type { GenerateOptions } from './customers';

export type HarnessProps = {
  customers?: CustomerView[];
  territories?: Territory[];
  routes?: Route[];
  selectedId?: string | null;
  hoveredId?: string | null;
  focus?: FocusRequest | null;
  palette?: string[];
  /** Base style: the app's offline basemap (with glyphs) or, by default, a plain background. */
  base?: 'minimal' | 'bundled';
  /** When true, the map selects/hovers what it reports (like the app would). */
  echo?: boolean;
};

export type RenderedFeature = {
  layer: string;
  id: string | number | undefined;
  props: Record<string, unknown>;
};

export interface HarnessApi {
  /** Draws customers in the page (for big sets); returns how many. */
  generate(n: number, seed: number, options?: GenerateOptions): number;
  /** ms to build the customers' GeoJSON from the generated customers (median of 3). */
  geojsonMs(): number;
  /** Mounts MapView; resolves with the ms from mount to the first 'idle'. */
  mount(props: HarnessProps, useGenerated?: boolean): Promise<number>;
  /** Changes props, then waits for the map to be idle again. */
  set(props: HarnessProps): Promise<void>;
  idle(): Promise<void>;
  jumpTo(center: [number, number], zoom: number): Promise<void>;
  calls: { select: (string | null)[]; hover: (string | null)[] };
  project(lng: number, lat: number): [number, number];
  renderedAt(lng: number, lat: number, layers: string[], radius?: number): RenderedFeature[];
  /** Distinct rendered pins and clusters in the viewport. */
  countRendered(): { pins: number; clusters: number; clusteredPoints: number; pinIds: string[] };
  /** Pixel positions and counts of the rendered clusters. */
  clusterPixels(): Array<{ x: number; y: number; count: number }>;
  /** RGBA of the drawn frame at a position, optionally dx CSS px to the right. */
  pixelAt(lng: number, lat: number, dx?: number): Promise<[number, number, number, number]>;
  featureState(customerId: string): Record<string, unknown> | null;
  layerIds(): string[];
  visibility(layerId: string): string;
  view(): { zoom: number; center: [number, number]; bounds: [number, number, number, number] };
  popup(): { text: string; imgs: number } | null;
  mapCount(): number;
}

type Fn = (...args: never[]) => unknown;
type Methods = { [K in keyof HarnessApi as HarnessApi[K] extends Fn ? K : never]: HarnessApi[K] };

/** Calls a harness method in the page; arguments and result travel as JSON. */
export type HarnessCall = <K extends keyof Methods>(
  name: K,
  ...args: Parameters<Methods[K]>
) => Promise<Awaited<ReturnType<Methods[K]>>>;

/** A HarnessCall bound to a page's `evaluate`. */
export function harnessCall(
  evaluate: (fn: (a: [string, unknown[]]) => unknown, arg: [string, unknown[]]) => Promise<unknown>,
): HarnessCall {
  return ((name: string, ...args: unknown[]) =>
    evaluate(
      ([n, a]) => {
        const h = (
          globalThis as unknown as { harness: Record<string, (...x: unknown[]) => unknown> }
        ).harness;
        return (h[n] as (...x: unknown[]) => unknown)(...a);
      },
      [name, args],
    )) as HarnessCall;
}
