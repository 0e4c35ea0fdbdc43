// MapLibre's worker (built by Vite as its own file, loaded from the app's origin: 'self' in the
// CSP's worker-src), with two additions for the pins the page hands over as a blob: URL
// (layers/pin-blob.ts):
// - blob: URLs of this origin are read here: MapLibre asks the page to fetch any scheme it has
//   no loader for, which would parse 100k pins on the UI thread;
// - a GeoJSON source loaded from a blob: URL does not post the parsed data back to the page
//   (MapLibre does for every URL, so the page can answer getData(); the page built that data
//   and never asks): that clone of every feature would be a long task on the UI thread.
// Both go through what the worker exposes on its global scope (addProtocol, the worker
// instance); if a MapLibre version lacks either, the map still works, only slower.
// Imported by name: the package marks its files free of side effects, so a bare import is dropped.
import MapLibreWorker from 'maplibre-gl/dist/maplibre-gl-worker.mjs';

type LoadResult = { data?: unknown };
type LoadParams = { request?: { url: string } };
type WorkerSource = { loadData?: (params: LoadParams) => Promise<LoadResult> };
type MapLibreWorkerInstance = {
  _getWorkerSource?: (mapId: string, type: string, source: string) => WorkerSource;
};
type Scope = {
  location: Location;
  addProtocol?: (
    scheme: string,
    load: (request: { url: string }, abort: AbortController) => Promise<{ data: unknown }>,
  ) => void;
  worker?: MapLibreWorkerInstance;
};

const scope = self as unknown as Scope;

// MapLibre keys loaders by what precedes '://': 'blob:http' in the browser runner, 'blob:app'.
scope.addProtocol?.(`blob:${scope.location.protocol.replace(/:$/, '')}`, async (request, abort) => {
  const response = await fetch(request.url, { signal: abort.signal });
  return { data: await response.json() };
});

const patched = new WeakSet<WorkerSource>();
const worker: MapLibreWorkerInstance | undefined =
  scope.worker instanceof MapLibreWorker ? scope.worker : undefined;
const getWorkerSource = worker?._getWorkerSource;
if (worker && getWorkerSource) {
  worker._getWorkerSource = function (mapId, type, name) {
    const source = getWorkerSource.call(this, mapId, type, name);
    const load = source.loadData;
    if (type === 'geojson' && load && !patched.has(source)) {
      patched.add(source);
      source.loadData = async (params) => {
        const result = await load.call(source, params);
        if (params.request?.url.startsWith('blob:')) delete result.data;
        return result;
      };
    }
    return source;
  };
}
