// The Nearby worker (see nearby-worker.ts): built by Vite as its own module file, loaded from the
// app's origin ('self' in the CSP's worker-src).
import { serveNearby, type NearbyPort } from './nearby-worker';

serveNearby(self as unknown as NearbyPort);
