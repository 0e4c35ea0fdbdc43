// The list's sort worker (see list-sort-worker.ts): built by Vite as its own module file, loaded
// from the app's origin ('self' in the CSP's worker-src).
import { serveSorts, type SortPort } from './list-sort-worker';

serveSorts(self as unknown as SortPort);
