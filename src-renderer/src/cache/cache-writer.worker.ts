// The cache's write worker (see cache-writer.ts): built by Vite as its own module file, loaded
// from the app's origin ('self' in the CSP's worker-src). Main's pieces reach it over the data
// port the page hands on (Electron's, or the browser runner's relay of the same port), or
// through the page.
import { serveCacheWriter, type WriterPort } from './cache-writer';

serveCacheWriter(self as unknown as WriterPort);
