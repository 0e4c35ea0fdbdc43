// MapLibre's worker (built by Vite as its own file, loaded from the app's origin: 'self' in the
// CSP's worker-src), with one addition for large pin sets: a GeoJSON source's `setData` URL
// that is a pins request is read here, not by MapLibre (layers/pins-request.ts, pinsLoader).
// The worker keeps the whole set of pins of the last version it read (a blob: URL the page
// wrote in slices, pin-blob.ts, parsed here once) and loads the source with the pins a request
// shows, so a filter change sends one byte per pin instead of the pins' JSON. Loaded as data,
// not from a URL, the source posts nothing back to the page (MapLibre posts the parsed data of
// any URL so the page can answer getData(); the page built that data and never asks): that
// clone of every feature would be a long task on the UI thread.
// It goes through what the worker exposes on its global scope (the worker instance and its
// `_getWorkerSource`); a MapLibre version without them fails the map-large e2e test.
// Imported by name: the package marks its files free of side effects, so a bare import is dropped.
import MapLibreWorker from 'maplibre-gl/dist/maplibre-gl-worker.mjs';
import { pinsLoader, type PinsWorkerSource, type ReadUrl } from './layers/pins-request';

type MapLibreWorkerInstance = {
  _getWorkerSource?: (mapId: string, type: string, source: string) => PinsWorkerSource;
};
type Scope = { worker?: MapLibreWorkerInstance };

const scope = self as unknown as Scope;

/** blob: URLs of this origin (the CSP's connect-src allows blob:). */
const read: ReadUrl = {
  json: async (url) => (await fetch(url)).json() as Promise<unknown>,
  bytes: async (url) => new Uint8Array(await (await fetch(url)).arrayBuffer()),
};

const patched = new WeakSet<PinsWorkerSource>();
const worker: MapLibreWorkerInstance | undefined =
  scope.worker instanceof MapLibreWorker ? scope.worker : undefined;
const getWorkerSource = worker?._getWorkerSource;
if (worker && getWorkerSource) {
  worker._getWorkerSource = function (mapId, type, name) {
    const source = getWorkerSource.call(this, mapId, type, name);
    if (type === 'geojson' && !patched.has(source)) {
      patched.add(source);
      pinsLoader(source, read);
    }
    return source;
  };
}
