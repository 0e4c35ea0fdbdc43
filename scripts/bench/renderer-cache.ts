// Bench module (run by scripts/bench.ts): the renderer cache and local search in Chromium.
// cache_write_100k_ms vs raw_idb_write_100k_ms (the same 100k records into a plain IndexedDB
// store with the same indices, same run), search_p95_ms (200 random terms over 100k), and
// heap_100k_mb (JS heap after the app's state classes hold 100k customers, after a GC).
import { launchBrowser, tempDir } from '../../test/support/browser';
import { buildTestPages } from '../../test/renderer/support/bundle';
import { openCachePage, scenario } from '../../test/renderer/support/pages';
import { round } from './support/stats';

const N = 100_000;

/** Both renderer modules report into bench-results/renderer.json (the file). */
export const resultFile = 'renderer';

export async function run(): Promise<Record<string, number>> {
  const out = await tempDir('fieldmap-bench-renderer-');
  const browser = await launchBrowser();
  try {
    await buildTestPages(out.path);
    const context = await browser.newContext();
    const page = await openCachePage(context, out.path);

    const write = await scenario<Record<string, number>>(page, 'benchWrite', N);
    const search = await scenario<Record<string, number>>(page, 'benchSearch', N, 200, 42);

    const heapPage = await openCachePage(context, out.path);
    await page.close();
    await scenario(heapPage, 'loadAppState', N);
    const cdp = await context.newCDPSession(heapPage);
    await cdp.send('HeapProfiler.collectGarbage');
    const heap = await cdp.send('Runtime.getHeapUsage');

    return {
      cache_write_100k_ms: round(write.cache_write_ms!),
      raw_idb_write_100k_ms: round(write.raw_idb_write_ms!),
      raw_idb_noindex_write_100k_ms: round(write.raw_idb_noindex_write_ms!),
      search_p95_ms: round(search.search_p95_ms!),
      search_index_build_100k_ms: round(search.search_index_build_ms!),
      heap_100k_mb: round(heap.usedSize / 1024 / 1024),
    };
  } finally {
    await browser.close();
    await out.remove();
  }
}

// `npx tsx scripts/bench/renderer-cache.ts` runs this module alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await run(), null, 2));
}
