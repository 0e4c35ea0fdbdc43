/// <reference types="vite/client" />
// MapLibre 6 ships its worker as a separate ES module; under a bundler its URL must be set
// once before the first map (the auto-detection only works for unbundled CDN imports). The
// app's worker is MapLibre's plus the blob: URL loading of large pin sets (maplibre.worker.ts).
import { getWorkerUrl, setWorkerUrl } from 'maplibre-gl';
import workerUrl from './maplibre.worker.ts?worker&url';

/** Points MapLibre at the bundled worker file (idempotent). */
export function useBundledWorker(): void {
  if (getWorkerUrl() !== workerUrl) setWorkerUrl(workerUrl);
}
