// The areas worker (see area-worker.ts): built by Vite as its own module file, loaded from the
// app's origin ('self' in the CSP's worker-src).
import { serveAreas, type AreaPort } from './area-worker';

serveAreas(self as unknown as AreaPort);
