// Large pin sets reach MapLibre as a blob: URL its worker reads and parses itself.
//
// Why: `setData(object)` makes MapLibre serialise every feature for postMessage on the UI
// thread, one long task in the first sync and the cold start at 100k pins. Here the page writes the FeatureCollection's text in
// slices of about SLICE_MS (JSON.stringify of CHUNK features, each chunk its own Blob, so no
// slice copies the whole text), and `setData` sends MapLibre's worker only the URL, in a pins
// request (pins-request.ts). The worker fetches and parses it (maplibre.worker.ts reads it
// there, instead of asking the page to, and keeps the parsed set for the filter instead of
// posting it back). The CSP allows it with `connect-src blob:` (src-main/shell/csp.ts).
import type { CustomerView } from '../../types';
import { CustomerFeaturesBuilder, type CustomerFeatures, type PinFeature } from './geojson';
import { nextTask } from '../../ui/next-task';

/** About how long one slice of work holds the UI thread (ms). */
export const SLICE_MS = 8;

/** Pins at or above which a reload is built in slices and handed over as a blob: URL. */
export const URL_RELOAD_MIN = 10_000;

/** Features serialised per step of a slice. */
const CHUNK = 1_000;

/** True once the work was superseded: the slices stop at the next yield. */
export type Cancelled = () => boolean;

/**
 * Runs `step(i)` for every i below `n`, yielding to the event loop every SLICE_MS or so (the
 * clock is read every `checkEvery` steps); false when `cancelled` said so at a yield (the
 * remaining steps are not run).
 */
export async function sliced(
  n: number,
  step: (i: number) => void,
  cancelled: Cancelled,
  checkEvery = 64,
): Promise<boolean> {
  let i = 0;
  while (i < n) {
    const until = performance.now() + SLICE_MS;
    while (i < n) {
      step(i++);
      if (i % checkEvery === 0 && performance.now() >= until) break;
    }
    if (i < n) {
      await nextTask();
      if (cancelled()) return false;
    }
  }
  return true;
}

/**
 * The features as a FeatureCollection in a blob: URL (revoke it once MapLibre has loaded it),
 * written in slices; null when cancelled.
 */
export async function pinsBlobUrl(
  features: readonly PinFeature[],
  cancelled: Cancelled,
): Promise<string | null> {
  const parts: Blob[] = [];
  const chunks = Math.ceil(features.length / CHUNK);
  const done = await sliced(
    chunks,
    (k) => {
      const text = JSON.stringify(features.slice(k * CHUNK, (k + 1) * CHUNK));
      parts.push(new Blob([k > 0 ? ',' : '', text.slice(1, -1)]));
    },
    cancelled,
    1,
  );
  if (!done) return null;
  const blob = new Blob(['{"type":"FeatureCollection","features":[', ...parts, ']}'], {
    type: 'application/json',
  });
  return URL.createObjectURL(blob);
}

/** A data version of the pins: the features, and which customer got which feature id. */
export type BuiltPins = {
  data: CustomerFeatures;
  featureIds: Map<string, number>;
  /** The customers built from, and each one's feature id (-1: no pin). */
  customers: readonly CustomerView[];
  fids: Int32Array;
};

/** Builds the pins of `customers`, in slices when `cancelled` is given (null when cancelled). */
export async function buildPinsSliced(
  customers: readonly CustomerView[],
  cancelled: Cancelled,
): Promise<BuiltPins | null> {
  const builder = new CustomerFeaturesBuilder();
  const fids = new Int32Array(customers.length);
  const done = await sliced(
    customers.length,
    (i) => (fids[i] = builder.add(customers[i]!)),
    cancelled,
  );
  return done ? { data: builder.result(), featureIds: builder.featureIds, customers, fids } : null;
}

/** Builds the pins of `customers` in one go. */
export function buildPins(customers: readonly CustomerView[]): BuiltPins {
  const builder = new CustomerFeaturesBuilder();
  const fids = new Int32Array(customers.length);
  for (let i = 0; i < customers.length; i++) fids[i] = builder.add(customers[i]!);
  return { data: builder.result(), featureIds: builder.featureIds, customers, fids };
}
