// MapLibre's worker module (no types of its own): its default export is the worker class, of
// which importing the module creates the one instance (`self.worker`).
declare module 'maplibre-gl/dist/maplibre-gl-worker.mjs' {
  const MapLibreWorker: new (...args: never[]) => object;
  export default MapLibreWorker;
}
