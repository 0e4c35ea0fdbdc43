// A PMTiles v3 writer for the fixtures and bundled assets: 127-byte header, a root directory
// (with leaf directories when the entries do not fit beside the header in 16 KiB, or when the
// caller asks for small leaves to exercise them), JSON metadata and the tile data in tile-id order
// (clustered), gzip-compressed like the archives Protomaps publishes. The encoding itself is
// main's (src-main/core/basemap/pmtiles-format.ts), which the region downloader writes with.
import { gzipSync } from 'node:zlib';
import { Compression, TileType, zxyToTileId } from 'pmtiles';
import {
  encodeHeader,
  sectionFields,
  layoutDirectories,
  type Entry,
} from '../../src-main/core/basemap/pmtiles-format';

export interface PmtilesTile {
  z: number;
  x: number;
  y: number;
  /** Uncompressed MVT bytes. */
  data: Uint8Array;
}

export interface PmtilesArchiveOptions {
  tiles: PmtilesTile[];
  /** [west, south, east, north] in degrees. */
  bounds: [number, number, number, number];
  metadata?: Record<string, unknown>;
  /** Entries per leaf directory; by default leaves only when the root would not fit. */
  leafSize?: number;
  /** Header fields to override (tests make raster or unclustered archives this way). */
  header?: { clustered?: boolean; tileType?: TileType };
}

export function writePmtilesArchive(options: PmtilesArchiveOptions): Uint8Array {
  const tiles = options.tiles
    .map((t) => ({ id: zxyToTileId(t.z, t.x, t.y), z: t.z, data: gzipSync(t.data) }))
    .sort((a, b) => a.id - b.id);
  const entries: Entry[] = [];
  let offset = 0;
  for (const t of tiles) {
    entries.push({ tileId: t.id, offset, length: t.data.length, runLength: 1 });
    offset += t.data.length;
  }
  const { root, leaves } = layoutDirectories(entries, options.leafSize);
  const forced = options.leafSize !== undefined && leaves.length === 0 && entries.length > 1;
  const layout = forced ? layoutWithLeaves(entries, options.leafSize!) : { root, leaves };
  const metadata = gzipSync(Buffer.from(JSON.stringify(options.metadata ?? {})));
  const tileData = Buffer.concat(tiles.map((t) => t.data));
  const zooms = tiles.map((t) => t.z);
  const [west, south, east, north] = options.bounds;
  const header = encodeHeader({
    ...sectionFields(layout, metadata.length, tileData.length),
    numAddressedTiles: tiles.length,
    numTileEntries: entries.length,
    numTileContents: tiles.length,
    clustered: options.header?.clustered ?? true,
    internalCompression: Compression.Gzip,
    tileCompression: Compression.Gzip,
    tileType: options.header?.tileType ?? TileType.Mvt,
    minZoom: Math.min(...zooms),
    maxZoom: Math.max(...zooms),
    minLon: west,
    minLat: south,
    maxLon: east,
    maxLat: north,
    centerZoom: Math.min(...zooms),
    centerLon: (west + east) / 2,
    centerLat: (south + north) / 2,
  });
  // A plain copy: a pooled Buffer would hand readers its whole backing ArrayBuffer.
  return new Uint8Array(Buffer.concat([header, layout.root, metadata, layout.leaves, tileData]));
}

/** Leaves of `leafSize` entries even though the root alone would fit (to test leaf reads). */
function layoutWithLeaves(entries: Entry[], leafSize: number) {
  const leafEntries: Entry[] = [];
  const parts: Uint8Array[] = [];
  let offset = 0;
  for (let i = 0; i < entries.length; i += leafSize) {
    const leaf = layoutDirectories(entries.slice(i, i + leafSize)).root;
    leafEntries.push({ tileId: entries[i]!.tileId, offset, length: leaf.length, runLength: 0 });
    parts.push(leaf);
    offset += leaf.length;
  }
  return { root: layoutDirectories(leafEntries).root, leaves: Buffer.concat(parts) };
}
