// The structural bounds a remote PMTiles archive must keep before its directories are used: each
// section inside the file, the root inside the first read (as the spec requires), directories and
// metadata of bounded size, every entry pointing inside its section, and no tile or leaf larger
// than one request. A crafted archive otherwise makes the planner read past the file, unpack
// gigabytes, or plan a request that can never be split. Each check returns the reason, or null.
import type { Entry, Header } from 'pmtiles';
import { FIRST_READ_BYTES, HEADER_BYTES } from './pmtiles-format';

/** Largest metadata, packed or unpacked (Protomaps builds carry a few KiB of JSON). */
export const MAX_METADATA_BYTES = 1024 * 1024;
/** Largest directory once unpacked (a go-pmtiles leaf of ~100k entries is under 1 MiB). */
export const MAX_DIRECTORY_BYTES = 4 * 1024 * 1024;
/** Largest packed leaf directory read in one piece. */
export const MAX_LEAF_BYTES = 1024 * 1024;
/** Largest tile: one request's worth (region-plan's MAX_REQUEST_BYTES). */
export const MAX_TILE_BYTES = 8 * 1024 * 1024;
/** Packed leaf directories one plan may read in all (cyclic or fanned-out leaves end here). */
export const MAX_LEAF_BYTES_READ = 64 * 1024 * 1024;

const KIB = (bytes: number) => `${Math.round(bytes / 1024)} KiB`;

/** Where each section lies against the archive's size; null when the layout is sound. */
export function checkLayout(header: Header, size: number | null): string | null {
  if (size === null) return 'it does not say how large it is (no Content-Range total)';
  const sections: Array<[string, number, number]> = [
    ['root directory', header.rootDirectoryOffset, header.rootDirectoryLength],
    ['metadata', header.jsonMetadataOffset, header.jsonMetadataLength],
    ['leaf directories', header.leafDirectoryOffset, header.leafDirectoryLength ?? 0],
    ['tile data', header.tileDataOffset, header.tileDataLength ?? 0],
  ];
  for (const [name, offset, length] of sections) {
    if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length))
      return `its header gives an impossible place for the ${name}`;
    if (offset < HEADER_BYTES || offset + length > size)
      return `its header puts the ${name} outside the file`;
  }
  if (header.rootDirectoryOffset + header.rootDirectoryLength > FIRST_READ_BYTES)
    return 'its root directory is not within the first 16 KiB, as PMTiles requires';
  if (header.jsonMetadataLength > MAX_METADATA_BYTES)
    return `its metadata is larger than ${KIB(MAX_METADATA_BYTES)}`;
  return null;
}

/**
 * Every entry of a decoded directory: ids increasing, tiles inside the tile data and no larger
 * than one request, leaves inside the leaf section and of bounded size. Null when all are sound.
 */
export function checkDirectory(entries: Entry[], header: Header): string | null {
  if (entries.length === 0) return 'it has an empty directory';
  let lastId = -1;
  for (const e of entries) {
    if (![e.tileId, e.offset, e.length, e.runLength].every(Number.isSafeInteger))
      return 'it has a directory entry that is not a number';
    if (e.tileId <= lastId) return 'its directory entries are out of order';
    lastId = e.tileId;
    if (e.runLength === 0) {
      if (e.length === 0 || e.length > MAX_LEAF_BYTES)
        return `it has a leaf directory larger than ${KIB(MAX_LEAF_BYTES)}`;
      if (e.offset + e.length > (header.leafDirectoryLength ?? 0))
        return 'it has a leaf directory outside its leaf section';
    } else {
      if (e.length > MAX_TILE_BYTES) return `it has a tile larger than ${KIB(MAX_TILE_BYTES)}`;
      if (e.offset + e.length > (header.tileDataLength ?? 0))
        return 'it has a tile outside its tile data';
    }
  }
  return null;
}
