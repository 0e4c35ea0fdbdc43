// The cache's write worker (see cache-writer.ts): built by Vite as its own module file, loaded
// from the app's origin ('self' in the CSP's worker-src).
import { serveCacheWriter, type WriterPort } from './cache-writer';

serveCacheWriter(self as unknown as WriterPort);
