// The cache's write worker (see cache-writer.ts): built by Vite as its own module file, loaded
// from the app's origin ('self' in the CSP's worker-src).
import { serveCacheWriter, type WriterPort } from './cache-writer';

const takePiece = serveCacheWriter(self as unknown as WriterPort);

// The browser runner's main delivers each piece of its data here, as one JSON string (Playwright's
// worker.evaluate over CDP): parsed and validated in this worker, so the page never relays them
// (Electron's main uses a MessagePort instead, which the page hands on). Only
// this worker's own code and the runner's CDP session can reach this global; answers true so the
// runner knows the worker is listening.
Object.defineProperty(self, '__fieldmapDeliverPiece', {
  value: (json: string): boolean => {
    takePiece(json);
    return true;
  },
  writable: false,
  configurable: false,
});
