// A remote PMTiles v3 archive read with HTTP range requests: https only (http on loopback), no
// loopback or private host unless the rep confirmed it, no redirects, retries on 5xx, 429 and
// dropped connections, and every answer checked: a 206 with exactly the bytes asked for (a body
// is read only up to them, and a stalled one is given up), the ETag the download started with.
// Each request is counted. openArchive checks the header's layout against the archive's size.
import { bytesToHeader, TileType, type Header } from 'pmtiles';
import type { Clock } from '../ports';
import { isLocalNetworkHost } from './remote-policy';
import { localAddressRefusalIn } from '../network/local-address-guard';
import {
  checkDirectory,
  checkLayout,
  MAX_DIRECTORY_BYTES,
  MAX_METADATA_BYTES,
} from './archive-bounds';
import {
  decodeDirectory,
  DecompressError,
  decompress,
  FIRST_READ_BYTES,
  HEADER_BYTES,
  type Entry,
} from './pmtiles-format';

export type DownloadErrorCode =
  | 'bad-url'
  /** A polygon that is not an area (area-ring.ts ringProblem): the message is the rep's. */
  | 'bad-area'
  | 'not-pmtiles'
  | 'unsupported'
  | 'no-range'
  | 'truncated'
  | 'source-changed'
  | 'http'
  | 'network'
  | 'disk-full'
  | 'too-large'
  | 'hostile'
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

/** A refusal of the source's contents, naming the source: "The map source <host/path> ...". */
export function refusedSource(url: string, reason: string): RegionDownloadError {
  const { host, pathname } = new URL(url);
  return new RegionDownloadError(
    'hostile',
    `The map source ${host}${pathname} was refused: ${reason}.`,
  );
}

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
  /**
   * True when the rep typed this address and confirmed it in main's dialog: only then may it be
   * on this computer or the local network (a source an administrator or a page names must not
   * make main probe them).
   */
  confirmedLocal?: boolean;
  /** A request whose answer or next bytes do not come within this is given up (default 30 s). */
  stallMs?: number;
}

/** What planning reads an archive through: RangeReader in main, its proxy in the plan worker. */
export interface ArchiveReader {
  readonly url: string;
  readonly etag: string | null;
  readonly lastModified: string | null;
  readonly requests: number;
  /** The archive's size in bytes, from the first answer's Content-Range. */
  readonly size: number | null;
  read(offset: number, length: number): Promise<Uint8Array>;
}

export class RangeReader implements ArchiveReader {
  readonly url: string;
  /** The ETag of the first answer; every later answer must carry the same. */
  etag: string | null = null;
  requests = 0;
  /** The Last-Modified of the first answer, a data date when the metadata has none. */
  lastModified: string | null = null;
  size: number | null = null;
  readonly #fetch: typeof globalThis.fetch;
  readonly #clock: Clock;
  readonly #signal: AbortSignal | undefined;
  readonly #retries: number;
  readonly #stallMs: number;

  constructor(url: string, options: RangeReaderOptions) {
    this.url = checkSourceUrl(url);
    if (!options.confirmedLocal && isLocalNetworkHost(new URL(this.url).hostname))
      throw new RegionDownloadError(
        'bad-url',
        'The map source is on this computer or the local network: type its address in Offline maps and confirm it.',
      );
    this.#fetch = options.fetch ?? globalThis.fetch;
    this.#clock = options.clock;
    this.#signal = options.signal;
    this.#retries = options.retries ?? 4;
    this.#stallMs = options.stallMs ?? 30_000;
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
    // Aborted by the caller's signal, or when the answer or its next bytes stall.
    const stall = new AbortController();
    const onAbort = () => stall.abort(this.#signal?.reason);
    this.#signal?.addEventListener('abort', onAbort, { once: true });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const watch = () => {
      clearTimeout(timer);
      timer = setTimeout(() => stall.abort(new StallError()), this.#stallMs);
    };
    watch();
    try {
      return await this.#exchange(offset, length, stall.signal, watch);
    } catch (error) {
      if (stall.signal.reason instanceof StallError && !this.#signal?.aborted)
        throw new Retry(
          new RegionDownloadError('network', 'The map source stopped answering; try again later.'),
        );
      throw error;
    } finally {
      clearTimeout(timer);
      this.#signal?.removeEventListener('abort', onAbort);
    }
  }

  async #exchange(
    offset: number,
    length: number,
    signal: AbortSignal,
    progress: () => void,
  ): Promise<Uint8Array> {
    let response: Response;
    try {
      response = await this.#fetch(this.url, {
        headers: { Range: `bytes=${offset}-${offset + length - 1}` },
        redirect: 'error',
        signal,
      });
    } catch (error) {
      if (this.#signal?.aborted) throw cancelled(this.#signal);
      if (signal.aborted) throw error;
      const local = localAddressRefusalIn(error);
      if (local)
        throw new RegionDownloadError(
          'bad-url',
          `The map source ${local.hostname} resolves to ${local.address}, an address on this computer or the local network: Fieldmap uses such an address only when you type it in Offline maps and confirm it.`,
        );
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
    // Never more than was asked for: an endless or oversized body is cut off there.
    const body = await readExactly(response, length, progress).catch((error: unknown) => {
      if (this.#signal?.aborted) throw cancelled(this.#signal);
      if (signal.aborted) throw error;
      if (error instanceof RegionDownloadError) throw error;
      throw new Retry(truncated());
    });
    if (!body)
      throw refusedSource(this.url, 'it answered a range request with more bytes than asked for');
    // The end of the file clamps a read that asks past it (the first 16 KiB of a small archive).
    const clamped = range && Number(range[3]) - 1 === Number(range[2]);
    if (!range || Number(range[1]) !== offset) throw new Retry(truncated());
    if (body.length !== length && !(clamped && body.length === Number(range[2]) - offset + 1))
      throw new Retry(truncated());
    this.etag ??= etag;
    if (range[3] !== '*') this.size ??= Number(range[3]);
    return body;
  }
}

/** The body when it holds at most `length` bytes, null (and the rest dropped) when it holds more. */
async function readExactly(
  response: Response,
  length: number,
  progress: () => void,
): Promise<Uint8Array | null> {
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > length) {
    await response.body?.cancel().catch(() => undefined);
    return null;
  }
  const out = new Uint8Array(length);
  let filled = 0;
  if (!response.body) return out.subarray(0, 0);
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return out.subarray(0, filled);
    progress();
    if (filled + value.byteLength > length) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    out.set(value, filled);
    filled += value.byteLength;
  }
}

class StallError extends Error {}

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

/** Unpacks and decodes one directory, refusing what breaks the archive's bounds. */
export function readDirectory(bytes: Uint8Array, header: Header, url: string): Entry[] {
  let entries: Entry[];
  try {
    entries = decodeDirectory(decompress(bytes, header.internalCompression, MAX_DIRECTORY_BYTES));
  } catch (error) {
    if (error instanceof DecompressError) throw refusedSource(url, `a directory ${error.message}`);
    throw refusedSource(url, 'it has an unreadable directory');
  }
  const problem = checkDirectory(entries, header);
  if (problem) throw refusedSource(url, problem);
  return entries;
}

/** Reads and checks the header, root directory and metadata: a clustered vector PMTiles v3. */
export async function openArchive(reader: ArchiveReader): Promise<RemoteArchive> {
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
  const layoutProblem = checkLayout(header, reader.size);
  if (layoutProblem) throw refusedSource(reader.url, layoutProblem);
  const rootEnd = header.rootDirectoryOffset + header.rootDirectoryLength;
  if (rootEnd > first.length)
    throw refusedSource(reader.url, 'its header puts the root directory outside the file');
  const root = readDirectory(
    first.subarray(header.rootDirectoryOffset, rootEnd),
    header,
    reader.url,
  );
  const metaEnd = header.jsonMetadataOffset + header.jsonMetadataLength;
  const metadata =
    metaEnd <= first.length
      ? first.slice(header.jsonMetadataOffset, metaEnd)
      : await reader.read(header.jsonMetadataOffset, header.jsonMetadataLength);
  let json: Uint8Array;
  try {
    json = decompress(metadata, header.internalCompression, MAX_METADATA_BYTES);
  } catch (error) {
    const reason = error instanceof DecompressError ? error.message : 'cannot be read';
    throw refusedSource(reader.url, `its metadata ${reason}`);
  }
  return { header, headerBytes: first.slice(0, HEADER_BYTES), root, metadata: json };
}
