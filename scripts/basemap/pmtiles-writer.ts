// A minimal PMTiles v3 writer: 127-byte header, one root directory (no leaf directories, enough for
// the few thousand tiles of a test fixture), JSON metadata and the tile data, gzip-compressed like
// the archives Protomaps publishes. Layout and field order follow the PMTiles v3 specification.
import { gzipSync } from 'node:zlib';
import { zxyToTileId } from 'pmtiles';

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
}

const HEADER_BYTES = 127;
const COMPRESSION_GZIP = 2;
const TILE_TYPE_MVT = 1;

function varints(values: number[]): number[] {
  const out: number[] = [];
  for (const value of values) {
    let v = value;
    while (v >= 0x80) {
      out.push((v % 0x80) | 0x80);
      v = Math.floor(v / 0x80);
    }
    out.push(v);
  }
  return out;
}

type DirEntry = { tileId: number; offset: number; length: number; runLength: number };

/** Directory encoding: count, then tile-id deltas, run lengths, lengths, offsets (0 = contiguous). */
function encodeDirectory(entries: DirEntry[]): Uint8Array {
  const values: number[] = [entries.length];
  let lastId = 0;
  for (const e of entries) {
    values.push(e.tileId - lastId);
    lastId = e.tileId;
  }
  for (const e of entries) values.push(e.runLength);
  for (const e of entries) values.push(e.length);
  entries.forEach((e, i) => {
    const previous = entries[i - 1];
    values.push(previous && e.offset === previous.offset + previous.length ? 0 : e.offset + 1);
  });
  return Uint8Array.from(varints(values));
}

export function writePmtilesArchive(options: PmtilesArchiveOptions): Uint8Array {
  const tiles = options.tiles
    .map((t) => ({ id: zxyToTileId(t.z, t.x, t.y), z: t.z, data: gzipSync(t.data) }))
    .sort((a, b) => a.id - b.id);
  const entries: DirEntry[] = [];
  let offset = 0;
  for (const t of tiles) {
    entries.push({ tileId: t.id, offset, length: t.data.length, runLength: 1 });
    offset += t.data.length;
  }
  const root = gzipSync(encodeDirectory(entries));
  const metadata = gzipSync(Buffer.from(JSON.stringify(options.metadata ?? {})));
  const tileData = Buffer.concat(tiles.map((t) => t.data));
  const zooms = tiles.map((t) => t.z);
  const [west, south, east, north] = options.bounds;

  const header = Buffer.alloc(HEADER_BYTES);
  header.write('PMTiles', 0, 'ascii');
  header.writeUInt8(3, 7);
  const rootOffset = HEADER_BYTES;
  const metadataOffset = rootOffset + root.length;
  const tileDataOffset = metadataOffset + metadata.length;
  const u64 = (value: number, at: number) => header.writeBigUInt64LE(BigInt(value), at);
  u64(rootOffset, 8);
  u64(root.length, 16);
  u64(metadataOffset, 24);
  u64(metadata.length, 32);
  u64(tileDataOffset, 40); // no leaf directories: empty, placed at the tile data
  u64(0, 48);
  u64(tileDataOffset, 56);
  u64(tileData.length, 64);
  u64(tiles.length, 72); // addressed tiles
  u64(entries.length, 80); // tile entries
  u64(tiles.length, 88); // tile contents
  header.writeUInt8(1, 96); // clustered: tile data is in tile-id order
  header.writeUInt8(COMPRESSION_GZIP, 97);
  header.writeUInt8(COMPRESSION_GZIP, 98);
  header.writeUInt8(TILE_TYPE_MVT, 99);
  header.writeUInt8(Math.min(...zooms), 100);
  header.writeUInt8(Math.max(...zooms), 101);
  const e7 = (deg: number) => Math.round(deg * 1e7);
  header.writeInt32LE(e7(west), 102);
  header.writeInt32LE(e7(south), 106);
  header.writeInt32LE(e7(east), 110);
  header.writeInt32LE(e7(north), 114);
  header.writeUInt8(Math.min(...zooms), 118);
  header.writeInt32LE(e7((west + east) / 2), 119);
  header.writeInt32LE(e7((south + north) / 2), 123);
  // A plain copy: a pooled Buffer would hand readers its whole backing ArrayBuffer.
  return new Uint8Array(Buffer.concat([header, root, metadata, tileData]));
}
