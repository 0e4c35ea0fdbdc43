// A remote PMTiles v3 archive read with HTTP range requests: https only (http on loopback), no
// redirects, retries on 5xx, 429 and dropped connections, and every answer checked: a 206 with
// exactly the bytes asked for, the ETag the download started with. Each request is counted.
import { bytesToHeader, TileType, type Header } from 'pmtiles';
import type { Clock } from '../ports';
import {
  decodeDirectory,
  decompress,
  FIRST_READ_BYTES,
  HEADER_BYTES,
  type Entry,
} from './pmtiles-format';

export type DownloadErrorCode =
  | 'bad-url'
  | 'not-pmtiles'
  | 'unsupported'
  | 'no-range'
  | 'truncated'
  | 'source-changed'
  | 'http'
  | 'network'
  | 'disk-full'
  | 'too-large'
  | 'cancelled';

/** A download refused or stopped, with a message for the rep. */
export class RegionDownloadError extends Error {
  override name = 'RegionDownloadError';
  constructor(
    readonly code: DownloadErrorCode,
    message: string,
  ) {
    super(message);
  }
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** The source URL to use, or a RegionDownloadError saying why not. */
export function checkSourceUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new RegionDownloadError('bad-url', 'The map source is not a valid URL.');
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.has(url.hostname)))
    throw new RegionDownloadError(
      'bad-url',
      `The map source must start with https:// (${url.protocol}// is not secure).`,
    );
  if (url.username !== '' || url.password !== '')
    throw new RegionDownloadError('bad-url', 'The map source must not contain a password.');
  return url.href;
}

export interface RangeReaderOptions {
  fetch?: typeof globalThis.fetch;
  clock: Clock;
  signal?: AbortSignal;
  retries?: number;
}

export class RangeReader {
  readonly url: string;
  /** The ETag of the first answer; every later answer must carry the same. */
  etag: string | null = null;
  requests = 0;
  /** The Last-Modified of the first answer, a data date when the metadata has none. */
  lastModified: string | null = null;
  readonly #fetch: typeof globalThis.fetch;
  readonly #clock: Clock;
  readonly #signal: AbortSignal | undefined;
  readonly #retries: number;

  constructor(url: string, options: RangeReaderOptions) {
    this.url = checkSourceUrl(url);
    this.#fetch = options.fetch ?? globalThis.fetch;
    this.#clock = options.clock;
    this.#signal = options.signal;
    this.#retries = options.retries ?? 4;
  }

  /** Exactly bytes [offset, offset + length) of the archive. */
  async read(offset: number, length: number): Promise<Uint8Array> {
    let lastError: RegionDownloadError | null = null;
    for (let attempt = 0; attempt <= this.#retries; attempt++) {
      if (attempt > 0) await this.#clock.sleep(250 * 2 ** (attempt - 1), this.#signal);
      try {
        return await this.#attempt(offset, length);
      } catch (error) {
        if (this.#signal?.aborted) throw cancelled(this.#signal);
        if (!(error instanceof Retry)) throw error;
        lastError = error.cause;
      }
    }
    throw lastError!;
  }

  async #attempt(offset: number, length: number): Promise<Uint8Array> {
    this.requests++;
    let response: Response;
    try {
      response = await this.#fetch(this.url, {
        headers: { Range: `bytes=${offset}-${offset + length - 1}` },
        redirect: 'error',
        ...(this.#signal ? { signal: this.#signal } : {}),
      });
    } catch (error) {
      if (this.#signal?.aborted) throw cancelled(this.#signal);
      const cause = error instanceof Error && error.cause instanceof Error ? error.cause : null;
      if (cause && /redirect/i.test(cause.message))
        throw new RegionDownloadError(
          'http',
          'The map source redirects elsewhere; give its final URL.',
        );
      throw new Retry(new RegionDownloadError('network', 'The map source could not be reached.'));
    }
    const etag = response.headers.get('ETag') ?? '';
    this.lastModified ??= response.headers.get('Last-Modified');
    if (this.etag !== null && etag !== this.etag) {
      await response.body?.cancel();
      throw new RegionDownloadError(
        'source-changed',
        'The map source changed during the download (a new build was published). Start the download again to get the new build.',
      );
    }
    if (response.status === 200) {
      await response.body?.cancel();
      throw new RegionDownloadError(
        'no-range',
        'The map source server ignores range requests, so an area cannot be cut out of it.',
      );
    }
    if (response.status >= 500 || response.status === 429) {
      await response.body?.cancel();
      throw new Retry(
        new RegionDownloadError(
          'http',
          `The map source answered ${response.status}; try again later.`,
        ),
      );
    }
    if (response.status !== 206) {
      await response.body?.cancel();
      throw new RegionDownloadError('http', `The map source answered ${response.status}.`);
    }
    const range = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(response.headers.get('Content-Range') ?? '');
    let body: Uint8Array;
    try {
      body = new Uint8Array(await response.arrayBuffer());
    } catch {
      if (this.#signal?.aborted) throw cancelled(this.#signal);
      throw new Retry(truncated());
    }
    // The end of the file clamps a read that asks past it (the first 16 KiB of a small archive).
    const clamped = range && Number(range[3]) - 1 === Number(range[2]);
    if (!range || Number(range[1]) !== offset) throw new Retry(truncated());
    if (body.length !== length && !(clamped && body.length === Number(range[2]) - offset + 1))
      throw new Retry(truncated());
    this.etag ??= etag;
    return body;
  }
}

class Retry extends Error {
  constructor(override readonly cause: RegionDownloadError) {
    super(cause.message);
  }
}

const truncated = () =>
  new RegionDownloadError('truncated', 'The map source sent a truncated answer; try again later.');

function cancelled(signal: AbortSignal): RegionDownloadError {
  return signal.reason instanceof RegionDownloadError
    ? signal.reason
    : new RegionDownloadError('cancelled', 'The download was stopped.');
}

export interface RemoteArchive {
  header: Header;
  root: Entry[];
  /** The header's 127 bytes, compared again when a download resumes. */
  headerBytes: Uint8Array;
  /** The JSON metadata, uncompressed. */
  metadata: Uint8Array;
}

/** Reads and checks the header, root directory and metadata: a clustered vector PMTiles v3. */
export async function openArchive(reader: RangeReader): Promise<RemoteArchive> {
  const first = await reader.read(0, FIRST_READ_BYTES);
  const text = new TextDecoder('ascii').decode(first.subarray(0, 7));
  if (text.startsWith('PM') && !text.startsWith('PMTiles'))
    throw new RegionDownloadError(
      'unsupported',
      'The map source is a PMTiles version 2 archive; version 3 is needed.',
    );
  if (first.length < HEADER_BYTES || text !== 'PMTiles')
    throw new RegionDownloadError('not-pmtiles', 'The map source is not a PMTiles archive.');
  const header = bytesToHeader(first.slice(0, HEADER_BYTES).buffer as ArrayBuffer);
  if (header.specVersion !== 3)
    throw new RegionDownloadError(
      'unsupported',
      `The map source is a PMTiles version ${header.specVersion} archive; version 3 is needed.`,
    );
  if (header.tileType !== TileType.Mvt)
    throw new RegionDownloadError(
      'unsupported',
      'The map source holds raster images, not vector tiles in the Protomaps schema.',
    );
  if (!header.clustered)
    throw new RegionDownloadError(
      'unsupported',
      'The map source is not a clustered archive, so areas cannot be read from it efficiently.',
    );
  const rootEnd = header.rootDirectoryOffset + header.rootDirectoryLength;
  const rootBytes =
    rootEnd <= first.length
      ? first.subarray(header.rootDirectoryOffset, rootEnd)
      : await reader.read(header.rootDirectoryOffset, header.rootDirectoryLength);
  const metaEnd = header.jsonMetadataOffset + header.jsonMetadataLength;
  const metadata =
    metaEnd <= first.length
      ? first.slice(header.jsonMetadataOffset, metaEnd)
      : await reader.read(header.jsonMetadataOffset, header.jsonMetadataLength);
  try {
    const root = decodeDirectory(decompress(rootBytes, header.internalCompression));
    const json = decompress(metadata, header.internalCompression);
    return { header, headerBytes: first.slice(0, HEADER_BYTES), root, metadata: json };
  } catch {
    throw new RegionDownloadError('unsupported', 'The map source has an unreadable directory.');
  }
}
