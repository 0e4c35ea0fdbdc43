// The disk cache of the online style's resources (style JSON, TileJSON, tiles): one file per URL
// named by sha256(url) plus an index file, least recently used out once the size cap is passed.
// fetchThroughCache serves a fresh copy from disk, else fetches and stores; when the fetch fails
// (offline, off the network, server down) it serves whatever copy it has, however old.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import * as v from 'valibot';
import { nodeDurableFs, type DurableFs } from '../durable-fs';
import { readBodyCapped } from '../service/responses';

const EntrySchema = v.object({
  key: v.string(),
  url: v.string(),
  size: v.number(),
  contentType: v.string(),
  storedAt: v.number(),
  /** A use counter, not a clock: the order of use is all LRU needs, and it survives clock changes. */
  lastUsed: v.number(),
});
type Entry = v.InferOutput<typeof EntrySchema>;
const IndexSchema = v.object({
  version: v.literal(1),
  tick: v.number(),
  entries: v.array(EntrySchema),
});

export interface TileCacheOptions {
  dir: string;
  capacityBytes: number;
  fetch?: typeof globalThis.fetch;
  now?: () => number;
  /** A stored copy younger than this is served without asking the network (default 7 days). */
  maxAgeMs?: number;
  timeoutMs?: number;
  /** Largest resource fetched (default 32 MiB): a bigger one is neither served nor stored. */
  maxResourceBytes?: number;
  fs?: DurableFs;
}

export type TileCacheResult =
  | { kind: 'fetched' | 'hit' | 'stale'; data: Uint8Array; contentType: string }
  | { kind: 'miss'; status: number };

export interface TileCacheUsage {
  capacityBytes: number;
  usedBytes: number;
  entries: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

export class TileCache {
  readonly #dir: string;
  readonly #indexFile: string;
  readonly #fetch: typeof globalThis.fetch;
  readonly #now: () => number;
  readonly #maxAgeMs: number;
  readonly #timeoutMs: number;
  readonly #maxResourceBytes: number;
  readonly #fs: DurableFs;
  #capacity: number;
  #entries = new Map<string, Entry>();
  #used = 0;
  #tick = 0;
  #saving: Promise<void> = Promise.resolve();
  #timer: ReturnType<typeof setTimeout> | null = null;

  private constructor(options: TileCacheOptions) {
    this.#dir = options.dir;
    this.#indexFile = join(options.dir, 'index.json');
    this.#fetch = options.fetch ?? globalThis.fetch;
    this.#now = options.now ?? Date.now;
    this.#maxAgeMs = options.maxAgeMs ?? 7 * DAY_MS;
    this.#timeoutMs = options.timeoutMs ?? 15_000;
    this.#maxResourceBytes = options.maxResourceBytes ?? 32 * 1024 * 1024;
    this.#capacity = options.capacityBytes;
    this.#fs = options.fs ?? nodeDurableFs;
  }

  static async open(options: TileCacheOptions): Promise<TileCache> {
    const cache = new TileCache(options);
    await cache.#fs.mkdir(cache.#dir);
    const parsed = v.safeParse(IndexSchema, await cache.#fs.readJson(cache.#indexFile));
    const files = new Set(
      (await cache.#fs.ops.readdir(cache.#dir)).filter((f) => f.endsWith('.tile')),
    );
    if (parsed.success) {
      cache.#tick = parsed.output.tick;
      for (const entry of parsed.output.entries) {
        if (!files.has(`${entry.key}.tile`)) continue; // written index, lost file: forget it
        cache.#entries.set(entry.key, entry);
        cache.#used += entry.size;
      }
    }
    // Files without an index entry (a crash between the file and the index write) are removed.
    for (const file of files) {
      if (!cache.#entries.has(file.slice(0, -'.tile'.length)))
        await cache.#fs.remove(join(cache.#dir, file));
    }
    await cache.#evict();
    return cache;
  }

  usage(): TileCacheUsage {
    return { capacityBytes: this.#capacity, usedBytes: this.#used, entries: this.#entries.size };
  }

  async setCapacity(bytes: number): Promise<void> {
    this.#capacity = bytes;
    await this.#evict();
    await this.#save();
  }

  has(url: string): boolean {
    return this.#entries.has(keyOf(url));
  }

  async fetchThroughCache(url: string): Promise<TileCacheResult> {
    const key = keyOf(url);
    const entry = this.#entries.get(key);
    if (entry && this.#now() - entry.storedAt < this.#maxAgeMs) {
      const data = await this.#read(entry);
      if (data) return { kind: 'hit', data, contentType: entry.contentType };
    }
    let response: Response;
    try {
      // A redirect is an error, never followed: it could lead anywhere the style did not name.
      const init: RequestInit = { signal: AbortSignal.timeout(this.#timeoutMs), redirect: 'error' };
      response = await this.#fetch(url, init);
    } catch {
      return this.#fallback(key, 504);
    }
    if (response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400)) {
      await response.body?.cancel().catch(() => undefined);
      return { kind: 'miss', status: 502 };
    }
    if (!response.ok) {
      // A server error is a failure to reach the data; a 404 is the server's answer.
      return response.status >= 500
        ? this.#fallback(key, response.status)
        : { kind: 'miss', status: response.status };
    }
    let data: Uint8Array;
    try {
      data = await readBodyCapped(response, this.#maxResourceBytes);
    } catch {
      // Over the cap, or cut off: nothing is served or stored from this answer.
      return { kind: 'miss', status: 502 };
    }
    const contentType = response.headers.get('content-type') ?? 'application/octet-stream';
    await this.#store(key, url, data, contentType);
    return { kind: 'fetched', data, contentType };
  }

  /** Waits for pending index writes (tests, shutdown). */
  async flush(): Promise<void> {
    if (this.#timer) {
      clearTimeout(this.#timer);
      this.#timer = null;
      await this.#save();
    }
    await this.#saving;
  }

  async clear(): Promise<void> {
    for (const key of this.#entries.keys()) await this.#fs.remove(this.#fileOf(key));
    this.#entries.clear();
    this.#used = 0;
    await this.#save();
  }

  async #fallback(key: string, status: number): Promise<TileCacheResult> {
    const entry = this.#entries.get(key);
    const data = entry ? await this.#read(entry) : null;
    return entry && data
      ? { kind: 'stale', data, contentType: entry.contentType }
      : { kind: 'miss', status };
  }

  async #read(entry: Entry): Promise<Uint8Array | null> {
    try {
      const data = new Uint8Array(await this.#fs.ops.readFile(this.#fileOf(entry.key)));
      entry.lastUsed = ++this.#tick;
      this.#scheduleSave();
      return data;
    } catch {
      this.#entries.delete(entry.key);
      this.#used -= entry.size;
      return null;
    }
  }

  async #store(key: string, url: string, data: Uint8Array, contentType: string): Promise<void> {
    if (data.length > this.#capacity) return; // never fits: serve it, keep nothing
    await this.#fs.writeFileAtomic(this.#fileOf(key), data);
    const previous = this.#entries.get(key);
    if (previous) this.#used -= previous.size;
    this.#entries.set(key, {
      key,
      url,
      size: data.length,
      contentType,
      storedAt: this.#now(),
      lastUsed: ++this.#tick,
    });
    this.#used += data.length;
    await this.#evict();
    await this.#save();
  }

  async #evict(): Promise<void> {
    if (this.#used <= this.#capacity) return;
    const byAge = [...this.#entries.values()].sort((a, b) => a.lastUsed - b.lastUsed);
    for (const entry of byAge) {
      if (this.#used <= this.#capacity) break;
      this.#entries.delete(entry.key);
      this.#used -= entry.size;
      await this.#fs.remove(this.#fileOf(entry.key));
    }
  }

  #fileOf(key: string): string {
    return join(this.#dir, `${key}.tile`);
  }

  /** Hits only move the LRU order: their index write is coalesced. */
  #scheduleSave(): void {
    if (this.#timer) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      void this.#save().catch(() => undefined);
    }, 250);
    this.#timer.unref?.();
  }

  /** Writes the index as it is when the write starts; writes never overlap. */
  #save(): Promise<void> {
    const write = this.#saving.then(() =>
      this.#fs.writeJson(this.#indexFile, {
        version: 1,
        tick: this.#tick,
        entries: [...this.#entries.values()],
      }),
    );
    this.#saving = write.catch(() => undefined);
    return write;
  }
}

function keyOf(url: string): string {
  return createHash('sha256').update(url).digest('hex');
}
