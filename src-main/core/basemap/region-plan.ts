// The plan of a region download, which is also its estimate: the tiles of an area (a bbox or a
// polygon) at zooms 0..maxZoom, found in the remote archive's directories (root, then only the
// leaves that cover them, read with coalesced range requests), the output archive laid out to
// the byte (header, root, metadata, leaves, then the tile data in tile-id order, deduplicated),
// and the coalesced source ranges to fetch, each with the pieces it holds and where they go.
import { gzipSync } from 'node:zlib';
import { Compression, findTile, zxyToTileId, type Header } from 'pmtiles';
import { MAX_LEAF_BYTES_READ } from './archive-bounds';
import { encodeHeader, sectionFields, layoutDirectories, type Entry } from './pmtiles-format';
import {
  openArchive,
  readDirectory,
  refusedSource,
  RegionDownloadError,
  type ArchiveReader,
} from './region-source';
import { latToY, lonToX, ringTiles } from './area-tiles';

export type Bounds = [number, number, number, number];
export type RegionArea =
  | { kind: 'bbox'; bounds: Bounds }
  /** One ring of [lon, lat] points (closed or not). */
  | { kind: 'polygon'; ring: Array<[number, number]> };

export const MAX_REGION_BYTES = 2 * 1024 ** 3;
/** Beyond this many tiles the area is refused before any directory is read. */
export const MAX_REGION_TILES = 4_000_000;
/** Source ranges closer than this are fetched as one request. */
export const MAX_GAP_BYTES = 32 * 1024;
export const MAX_REQUEST_BYTES = 8 * 1024 * 1024;

export interface RangePlan {
  offset: number;
  length: number;
  /** Flat triples: offset in the range, offset in the output's tile data, length. */
  pieces: number[];
}

export interface DownloadPlan {
  version: 1;
  sourceUrl: string;
  etag: string;
  /** The source header (base64), compared again when a download resumes. */
  sourceHeader: string;
  dataDate: string | null;
  bounds: Bounds;
  maxZoom: number;
  tileCount: number;
  /** The output's bytes before the tile data (base64): header, root, metadata, leaves. */
  head: string;
  totalBytes: number;
  /** Bytes of all the source ranges (tile data plus the small gaps coalescing fetches). */
  downloadBytes: number;
  ranges: RangePlan[];
  /** Requests to read the header and directories. */
  directoryRequests: number;
}

export function areaBounds(area: RegionArea): Bounds {
  if (area.kind === 'bbox') return area.bounds;
  const lons = area.ring.map((p) => p[0]);
  const lats = area.ring.map((p) => p[1]);
  return [Math.min(...lons), Math.min(...lats), Math.max(...lons), Math.max(...lats)];
}

/** The sorted tile ids of the area at zooms 0..maxZoom. */
export function areaTileIds(area: RegionArea, maxZoom: number): number[] {
  const [w, s, e, n] = areaBounds(area);
  let count = 0;
  for (let z = 0; z <= maxZoom; z++) {
    const size = 2 ** z;
    count += (lonToX(e, size) - lonToX(w, size) + 1) * (latToY(s, size) - latToY(n, size) + 1);
  }
  if (count > MAX_REGION_TILES)
    throw new RegionDownloadError(
      'too-large',
      'That area is too large to keep offline at this zoom; choose a smaller area or a lower max zoom.',
    );
  const ids: number[] = [];
  for (let z = 0; z <= maxZoom; z++) {
    const size = 2 ** z;
    const window = {
      n: size,
      x0: lonToX(w, size),
      x1: lonToX(e, size),
      y0: latToY(n, size),
      y1: latToY(s, size),
    };
    if (area.kind === 'polygon')
      ringTiles(area.ring, window, (x, y) => ids.push(zxyToTileId(z, x, y)));
    else
      for (let x = window.x0; x <= window.x1; x++)
        for (let y = window.y0; y <= window.y1; y++) ids.push(zxyToTileId(z, x, y));
  }
  return ids.sort((a, b) => a - b);
}

interface Span<T> {
  offset: number;
  length: number;
  items: T[];
}

/** Groups byte spans (sorted by offset) into requests: gaps up to maxGap are fetched too. */
export function coalesce<T extends { offset: number; length: number }>(
  sorted: T[],
  maxGap: number,
  maxLength: number,
): Span<T>[] {
  const spans: Span<T>[] = [];
  for (const item of sorted) {
    const last = spans[spans.length - 1];
    const end = item.offset + item.length;
    if (
      last &&
      item.offset - (last.offset + last.length) <= maxGap &&
      end - last.offset <= maxLength
    ) {
      last.length = Math.max(last.length, end - last.offset);
      last.items.push(item);
    } else spans.push({ offset: item.offset, length: item.length, items: [item] });
  }
  return spans;
}

/** The source entry of every wanted tile id the archive has, walking leaves as needed. */
async function findEntries(
  reader: ArchiveReader,
  header: Header,
  root: Entry[],
  ids: number[],
): Promise<{ found: Array<[number, Entry]>; requests: number }> {
  const leafBase = header.leafDirectoryOffset;
  const found: Array<[number, Entry]> = [];
  let requests = 0;
  let leafBytes = 0;
  let pending: Array<{ entries: Entry[]; ids: number[] }> = [{ entries: root, ids }];
  for (let depth = 0; depth < 4 && pending.length > 0; depth++) {
    const leaves = new Map<Entry, number[]>();
    for (const { entries, ids: wanted } of pending) {
      for (const id of wanted) {
        const entry = findTile(entries, id);
        if (!entry) continue;
        if (entry.runLength > 0) found.push([id, entry]);
        else leaves.set(entry, [...(leaves.get(entry) ?? []), id]);
      }
    }
    const wantedLeaves = [...leaves.keys()]
      .map((e) => ({ offset: e.offset, length: e.length, entry: e }))
      .sort((a, b) => a.offset - b.offset);
    pending = [];
    for (const span of coalesce(wantedLeaves, MAX_GAP_BYTES, MAX_REQUEST_BYTES)) {
      requests++;
      leafBytes += span.length;
      if (leafBytes > MAX_LEAF_BYTES_READ)
        throw refusedSource(reader.url, 'its directories for that area are larger than 64 MiB');
      const bytes = await reader.read(leafBase + span.offset, span.length);
      for (const item of span.items) {
        const start = item.offset - span.offset;
        const raw = bytes.subarray(start, start + item.length);
        pending.push({
          entries: readDirectory(raw, header, reader.url),
          ids: leaves.get(item.entry)!,
        });
      }
    }
  }
  if (pending.length > 0)
    throw refusedSource(reader.url, 'it nests its directories too deep (leaves of leaves)');
  return { found: found.sort((a, b) => a[0] - b[0]), requests };
}

function dataDateOf(metadata: Uint8Array, lastModified: string | null): string | null {
  try {
    const json = JSON.parse(new TextDecoder().decode(metadata)) as Record<string, unknown>;
    for (const key of ['planetiler:osm:osmosisreplicationtime', 'data_date', 'version']) {
      const value = json[key];
      if (typeof value === 'string' && !Number.isNaN(Date.parse(value)))
        return new Date(value).toISOString();
    }
  } catch {
    // no readable metadata: fall back to the server's date
  }
  return lastModified && !Number.isNaN(Date.parse(lastModified))
    ? new Date(lastModified).toISOString()
    : null;
}

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

/** Reads the source's header and directories and lays out the region: the estimate, exactly. */
export async function planDownload(
  reader: ArchiveReader,
  area: RegionArea,
  maxZoom: number,
  limits: { maxBytes?: number; maxGapBytes?: number } = {},
): Promise<DownloadPlan> {
  const maxBytes = limits.maxBytes ?? MAX_REGION_BYTES;
  const maxGap = limits.maxGapBytes ?? MAX_GAP_BYTES;
  const ids = areaTileIds(area, maxZoom);
  const before = reader.requests;
  const archive = await openArchive(reader);
  const { header } = archive;
  const { found } = await findEntries(reader, header, archive.root, ids);
  if (found.length === 0)
    throw new RegionDownloadError('unsupported', 'The map source has no tiles in that area.');

  // Output contents in order of first use by tile id (clustered), deduplicated by source offset.
  const outOffsetOf = new Map<number, number>();
  const contents: Array<{ offset: number; length: number; out: number }> = [];
  let dataLength = 0;
  const entries: Entry[] = [];
  for (const [id, source] of found) {
    let out = outOffsetOf.get(source.offset);
    if (out === undefined) {
      out = dataLength;
      outOffsetOf.set(source.offset, out);
      contents.push({ offset: source.offset, length: source.length, out });
      dataLength += source.length;
    }
    const last = entries[entries.length - 1];
    if (last && last.offset === out && last.tileId + last.runLength === id) last.runLength++;
    else entries.push({ tileId: id, offset: out, length: source.length, runLength: 1 });
  }
  const layout = layoutDirectories(entries);
  const metadata = gzipSync(archive.metadata);
  const sections = sectionFields(layout, metadata.length, dataLength);
  const { tileDataOffset } = sections;
  const [w, s, e, n] = areaBounds(area);
  const outHeader = encodeHeader({
    ...header,
    ...sections,
    numAddressedTiles: found.length,
    numTileEntries: entries.length,
    numTileContents: contents.length,
    clustered: true,
    internalCompression: Compression.Gzip,
    minZoom: 0,
    maxZoom: Math.min(maxZoom, header.maxZoom),
    minLon: Math.max(w, header.minLon),
    minLat: Math.max(s, header.minLat),
    maxLon: Math.min(e, header.maxLon),
    maxLat: Math.min(n, header.maxLat),
    centerZoom: Math.min(maxZoom, Math.max(0, header.maxZoom - 4)),
    centerLon: (w + e) / 2,
    centerLat: (s + n) / 2,
  });
  const totalBytes = tileDataOffset + dataLength;
  if (totalBytes > maxBytes)
    throw new RegionDownloadError(
      'too-large',
      `That area would take ${Math.ceil(totalBytes / 1024 ** 2)} MB, more than the ${Math.floor(maxBytes / 1024 ** 2)} MB limit for one region; choose a smaller area or a lower max zoom.`,
    );
  const bySource = [...contents].sort((a, b) => a.offset - b.offset);
  const ranges = coalesce(bySource, maxGap, MAX_REQUEST_BYTES).map((span) => ({
    offset: header.tileDataOffset + span.offset,
    length: span.length,
    pieces: span.items.flatMap((c) => [c.offset - span.offset, c.out, c.length]),
  }));
  return {
    version: 1,
    sourceUrl: reader.url,
    etag: reader.etag ?? '',
    sourceHeader: b64(archive.headerBytes),
    dataDate: dataDateOf(archive.metadata, reader.lastModified),
    bounds: [w, s, e, n],
    maxZoom,
    tileCount: found.length,
    head: b64(Buffer.concat([outHeader, layout.root, metadata, layout.leaves])),
    totalBytes,
    downloadBytes: ranges.reduce((sum, r) => sum + r.length, 0),
    ranges,
    directoryRequests: reader.requests - before,
  };
}
