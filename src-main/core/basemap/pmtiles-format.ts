// PMTiles v3 encoding shared by the region downloader (main) and the fixture writer (scripts):
// the 127-byte header, directories (varint columns: tile-id deltas, run lengths, lengths, offsets)
// and the root/leaf split that keeps the header and root directory inside the first 16 KiB.
// Decoding of headers is the `pmtiles` library's (bytesToHeader); it does not export directory
// decoding, so decodeDirectory reads the same columns with its readVarint.
import * as zlib from 'node:zlib';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { Compression, readVarint, type Entry, type Header } from 'pmtiles';

export type { Entry };
export const HEADER_BYTES = 127;
/** What clients read first: the header and the whole root directory must fit in it. */
export const FIRST_READ_BYTES = 16_384;

function varints(values: number[]): Uint8Array {
  const out: number[] = [];
  for (const value of values) {
    let v = value;
    while (v >= 0x80) {
      out.push((v % 0x80) | 0x80);
      v = Math.floor(v / 0x80);
    }
    out.push(v);
  }
  return Uint8Array.from(out);
}

/** Directory encoding: count, then tile-id deltas, run lengths, lengths, offsets (0 = contiguous). */
export function encodeDirectory(entries: Entry[]): Uint8Array {
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
  return varints(values);
}

/**
 * Reads a directory's columns. Throws a DecompressError when the bytes cannot be one: more
 * entries than bytes could hold (each takes at least four), or columns that end early or late.
 */
export function decodeDirectory(bytes: Uint8Array): Entry[] {
  const p = { buf: bytes, pos: 0 };
  const count = readVarint(p);
  if (count > bytes.length / 4) throw new DecompressError('is malformed');
  const entries: Entry[] = [];
  let lastId = 0;
  for (let i = 0; i < count; i++) {
    lastId += readVarint(p);
    entries.push({ tileId: lastId, offset: 0, length: 0, runLength: 1 });
  }
  for (const e of entries) e.runLength = readVarint(p);
  for (const e of entries) e.length = readVarint(p);
  entries.forEach((e, i) => {
    const raw = readVarint(p);
    const previous = entries[i - 1];
    e.offset = raw === 0 && previous ? previous.offset + previous.length : raw - 1;
  });
  if (p.pos !== bytes.length) throw new DecompressError('is malformed');
  return entries;
}

/** Thrown when decompressed bytes would pass their cap, or the compression is not supported. */
export class DecompressError extends Error {
  override name = 'DecompressError';
}

// zstd came to node:zlib after Node 20; Electron's Node has it, so it is used where present.
const zstdDecompressSync = (
  zlib as unknown as {
    zstdDecompressSync?: (b: Uint8Array, o: { maxOutputLength: number }) => Uint8Array;
  }
).zstdDecompressSync;

/**
 * Undoes the archive's internal compression, refusing output over `maxBytes`: zlib stops as soon
 * as the cap is passed, so a small bomb costs the cap, not its unpacked size.
 */
export function decompress(
  bytes: Uint8Array,
  compression: Compression,
  maxBytes: number,
): Uint8Array {
  const options = { maxOutputLength: maxBytes };
  try {
    if (compression === Compression.None || compression === Compression.Unknown) {
      if (bytes.length > maxBytes) throw new RangeError('over the cap');
      return bytes;
    }
    if (compression === Compression.Gzip) return gunzipSync(bytes, options);
    if (compression === Compression.Brotli) return brotliDecompressSync(bytes, options);
    if (compression === Compression.Zstd && zstdDecompressSync)
      return zstdDecompressSync(bytes, options);
  } catch (error) {
    if (
      error instanceof RangeError ||
      (error as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE'
    )
      throw new DecompressError(`unpacks to more than ${Math.round(maxBytes / 1024)} KiB`);
    throw new DecompressError('is not validly compressed');
  }
  throw new DecompressError(`uses compression ${compression}, which is not supported`);
}

export type HeaderFields = Omit<Header, 'etag' | 'specVersion'>;

export function encodeHeader(h: HeaderFields): Uint8Array {
  const header = Buffer.alloc(HEADER_BYTES);
  header.write('PMTiles', 0, 'ascii');
  header.writeUInt8(3, 7);
  const u64 = (value: number, at: number) => header.writeBigUInt64LE(BigInt(value), at);
  u64(h.rootDirectoryOffset, 8);
  u64(h.rootDirectoryLength, 16);
  u64(h.jsonMetadataOffset, 24);
  u64(h.jsonMetadataLength, 32);
  u64(h.leafDirectoryOffset, 40);
  u64(h.leafDirectoryLength ?? 0, 48);
  u64(h.tileDataOffset, 56);
  u64(h.tileDataLength ?? 0, 64);
  u64(h.numAddressedTiles, 72);
  u64(h.numTileEntries, 80);
  u64(h.numTileContents, 88);
  header.writeUInt8(h.clustered ? 1 : 0, 96);
  header.writeUInt8(h.internalCompression, 97);
  header.writeUInt8(h.tileCompression, 98);
  header.writeUInt8(h.tileType, 99);
  header.writeUInt8(h.minZoom, 100);
  header.writeUInt8(h.maxZoom, 101);
  const e7 = (deg: number) => Math.round(deg * 1e7);
  header.writeInt32LE(e7(h.minLon), 102);
  header.writeInt32LE(e7(h.minLat), 106);
  header.writeInt32LE(e7(h.maxLon), 110);
  header.writeInt32LE(e7(h.maxLat), 114);
  header.writeUInt8(h.centerZoom, 118);
  header.writeInt32LE(e7(h.centerLon), 119);
  header.writeInt32LE(e7(h.centerLat), 123);
  return new Uint8Array(header);
}

export interface DirectoryLayout {
  /** gzip-compressed root directory. */
  root: Uint8Array;
  /** gzip-compressed leaf directories, back to back (empty when the root holds every entry). */
  leaves: Uint8Array;
}

/**
 * Where each section of an archive laid out as header, root directory, metadata, leaf
 * directories, tile data (go-pmtiles' order) starts, as the header's offset and length fields.
 */
export function sectionFields(
  layout: DirectoryLayout,
  metadataLength: number,
  tileDataLength: number,
): Pick<
  HeaderFields,
  | 'rootDirectoryOffset'
  | 'rootDirectoryLength'
  | 'jsonMetadataOffset'
  | 'jsonMetadataLength'
  | 'leafDirectoryOffset'
  | 'leafDirectoryLength'
  | 'tileDataOffset'
  | 'tileDataLength'
> {
  const jsonMetadataOffset = HEADER_BYTES + layout.root.length;
  const leafDirectoryOffset = jsonMetadataOffset + metadataLength;
  return {
    rootDirectoryOffset: HEADER_BYTES,
    rootDirectoryLength: layout.root.length,
    jsonMetadataOffset,
    jsonMetadataLength: metadataLength,
    leafDirectoryOffset,
    leafDirectoryLength: layout.leaves.length,
    tileDataOffset: leafDirectoryOffset + layout.leaves.length,
    tileDataLength,
  };
}

/**
 * The root directory alone when it fits beside the header in the first 16 KiB, else leaves of
 * `leafSize` entries (grown by 1.2x until the root fits), as go-pmtiles lays out its archives.
 */
export function layoutDirectories(entries: Entry[], leafSize = 4096): DirectoryLayout {
  const limit = FIRST_READ_BYTES - HEADER_BYTES;
  const whole = gzipSync(encodeDirectory(entries));
  if (whole.length <= limit) return { root: whole, leaves: new Uint8Array(0) };
  let size = leafSize;
  for (;;) {
    const rootEntries: Entry[] = [];
    const parts: Uint8Array[] = [];
    let offset = 0;
    for (let i = 0; i < entries.length; i += size) {
      const leaf = gzipSync(encodeDirectory(entries.slice(i, i + size)));
      rootEntries.push({ tileId: entries[i]!.tileId, offset, length: leaf.length, runLength: 0 });
      parts.push(leaf);
      offset += leaf.length;
    }
    const root = gzipSync(encodeDirectory(rootEntries));
    if (root.length <= limit) return { root, leaves: new Uint8Array(Buffer.concat(parts)) };
    size = Math.ceil(size * 1.2);
  }
}
