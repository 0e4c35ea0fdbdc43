// Crafted PMTiles archives and sources, made by reading main's region code for what it trusted:
// unpack bombs in the metadata and directories, directories with millions of entries or a count
// that lies, leaves that point at themselves, headers that point outside the file or past the
// first 16 KiB, a tile larger than any request, and servers whose answers never end or stall.
// Used by test/basemap/hostile-sources.test.ts and scripts/bench/hostile-basemap.ts.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { Compression, TileType } from 'pmtiles';
import {
  encodeDirectory,
  encodeHeader,
  type Entry,
  type HeaderFields,
} from '../../src-main/core/basemap/pmtiles-format';

const WORLD = { minLon: -180, minLat: -85, maxLon: 180, maxLat: 85 };

interface Parts {
  compression: Compression;
  root: Uint8Array;
  metadata: Uint8Array;
  leaves?: Uint8Array;
  data?: Uint8Array;
  /** Header fields to overwrite after the layout (offsets that lie). */
  patch?: Partial<HeaderFields>;
}

/** header, root, metadata, leaves, tile data, with the header describing exactly that. */
export function craftArchive(parts: Parts): Uint8Array {
  const leaves = parts.leaves ?? new Uint8Array(0);
  const data = parts.data ?? new Uint8Array(16);
  const rootOffset = 127;
  const metaOffset = rootOffset + parts.root.length;
  const leafOffset = metaOffset + parts.metadata.length;
  const dataOffset = leafOffset + leaves.length;
  const header = encodeHeader({
    rootDirectoryOffset: rootOffset,
    rootDirectoryLength: parts.root.length,
    jsonMetadataOffset: metaOffset,
    jsonMetadataLength: parts.metadata.length,
    leafDirectoryOffset: leafOffset,
    leafDirectoryLength: leaves.length,
    tileDataOffset: dataOffset,
    tileDataLength: data.length,
    numAddressedTiles: 1,
    numTileEntries: 1,
    numTileContents: 1,
    clustered: true,
    internalCompression: parts.compression,
    tileCompression: Compression.Gzip,
    tileType: TileType.Mvt,
    minZoom: 0,
    maxZoom: 15,
    ...WORLD,
    centerZoom: 0,
    centerLon: 0,
    centerLat: 0,
    ...parts.patch,
  });
  return new Uint8Array(Buffer.concat([header, parts.root, parts.metadata, leaves, data]));
}

const gz = (bytes: Uint8Array) => new Uint8Array(gzipSync(bytes));
function varint(value: number): Uint8Array {
  const out: number[] = [];
  let v = value;
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
  return Uint8Array.from(out);
}
const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
const oneTile = (length = 16): Entry[] => [{ tileId: 0, offset: 0, length, runLength: 1 }];
/** A root whose one entry sends every tile id to the leaf at 0 of `length` bytes. */
const toLeaf = (length: number): Entry[] => [{ tileId: 0, offset: 0, length, runLength: 0 }];

let brotliBomb: Uint8Array | null = null;
/**
 * 1 GiB of zeros in ~800 bytes of brotli. Made once at the highest quality (minutes of CPU), so
 * it is kept beside this file; `npx tsx test/basemap/hostile-archives.ts` writes it again.
 */
export function brotliGigabyte(): Uint8Array {
  brotliBomb ??= new Uint8Array(readFileSync(new URL('./hostile-brotli-1gib.br', import.meta.url)));
  return brotliBomb;
}

let gzipBomb: Uint8Array | null = null;
/** 64 MiB of zeros in ~64 KiB of gzip: sixteen times the directory cap. */
function gzipZeros(): Uint8Array {
  gzipBomb ??= gz(new Uint8Array(64 * 1024 * 1024));
  return gzipBomb;
}

/** One crafted archive: its name, its bytes, and what its refusal must say. */
export interface CraftedArchive {
  name: string;
  bytes: () => Uint8Array;
  reason: RegExp;
}

export const CRAFTED_ARCHIVES: CraftedArchive[] = [
  {
    name: 'brotli metadata unpacking to 1 GiB',
    bytes: () =>
      craftArchive({
        compression: Compression.Brotli,
        root: new Uint8Array(brotliCompressSync(encodeDirectory(oneTile()))),
        metadata: brotliGigabyte(),
      }),
    reason: /its metadata unpacks to more than 1024 KiB/,
  },
  {
    name: 'gzip leaf directory unpacking to 64 MiB',
    bytes: () => {
      const leaf = gzipZeros();
      return craftArchive({
        compression: Compression.Gzip,
        root: gz(encodeDirectory(toLeaf(leaf.length))),
        metadata: gz(json({})),
        leaves: leaf,
      });
    },
    reason: /a directory unpacks to more than 4096 KiB/,
  },
  {
    name: 'leaf directory of 1.5 million entries',
    bytes: () => {
      // Written column by column (count, id deltas, run lengths, lengths, offsets): the same
      // bytes encodeDirectory makes, without 1.5 million objects.
      const count = 1_500_000;
      const head = varint(count);
      const raw = Buffer.alloc(head.length + 4 * count);
      raw.set(head, 0);
      let at = head.length;
      raw.fill(1, at, (at += count)); // each id one after the last
      raw.fill(1, at, (at += count)); // run length 1
      raw.fill(16, at, (at += count)); // 16 bytes each
      raw[at] = 1; // the first at offset 0, the rest contiguous (0)
      const leaf = new Uint8Array(gzipSync(raw, { level: 1 }));
      return craftArchive({
        compression: Compression.Gzip,
        root: gz(encodeDirectory(toLeaf(leaf.length))),
        metadata: gz(json({})),
        leaves: leaf,
      });
    },
    reason: /a directory unpacks to more than 4096 KiB/,
  },
  {
    name: 'directory whose entry count lies (a billion entries in 8 bytes)',
    bytes: () =>
      craftArchive({
        compression: Compression.None,
        // count 2^30, then a handful of bytes
        root: Uint8Array.from([0x80, 0x80, 0x80, 0x80, 0x04, 1, 1, 1]),
        metadata: json({}),
      }),
    reason: /a directory is malformed/,
  },
  {
    name: 'leaf directory that points at itself',
    bytes: () => {
      // Uncompressed, the leaf's own entry is 5 bytes long: it names bytes 0..5 of the leaves.
      const leaf = encodeDirectory(toLeaf(5));
      return craftArchive({
        compression: Compression.None,
        root: encodeDirectory(toLeaf(leaf.length)),
        metadata: json({}),
        leaves: leaf,
      });
    },
    reason: /nests its directories too deep/,
  },
  {
    name: 'header whose tile data lies outside the file',
    bytes: () => {
      const base = craftArchive({
        compression: Compression.Gzip,
        root: gz(encodeDirectory(oneTile())),
        metadata: gz(json({})),
      });
      return craftArchive({
        compression: Compression.Gzip,
        root: gz(encodeDirectory(oneTile())),
        metadata: gz(json({})),
        patch: { tileDataLength: 2 ** 40, tileDataOffset: base.length - 16 },
      });
    },
    reason: /puts the tile data outside the file/,
  },
  {
    name: 'header whose root directory lies past the first 16 KiB',
    bytes: () => {
      const root = gz(encodeDirectory(oneTile()));
      const filler = new Uint8Array(20_000);
      const archive = craftArchive({ compression: Compression.Gzip, root, metadata: filler });
      // The root moved to after the filler (its bytes copied there).
      const moved = Buffer.concat([archive, root]);
      moved.writeBigUInt64LE(BigInt(archive.length), 8);
      moved.writeBigUInt64LE(BigInt(root.length), 16);
      return new Uint8Array(moved);
    },
    reason: /root directory is not within the first 16 KiB/,
  },
  {
    name: 'tile of 9 MiB, larger than one request',
    bytes: () => {
      const size = 9 * 1024 * 1024;
      return craftArchive({
        compression: Compression.Gzip,
        root: gz(encodeDirectory(oneTile(size))),
        metadata: gz(json({})),
        data: new Uint8Array(size),
      });
    },
    reason: /a tile larger than 8192 KiB/,
  },
];

export interface HostileServer {
  url: string;
  /** Requests seen. */
  requests: number;
  close(): Promise<void>;
}

/** A loopback server whose every answer is `answer`'s (an endless body, a stall...). */
export async function startHostileServer(
  answer: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<HostileServer> {
  const state: HostileServer = { url: '', requests: 0, close: async () => undefined };
  const server = createServer((request, response) => {
    state.requests++;
    answer(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hostile.pmtiles`;
  state.close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return state;
}

/** A 206 to any range whose body never ends (zeros, as fast as the client reads). */
export function endlessBody(request: IncomingMessage, response: ServerResponse): void {
  response.writeHead(206, {
    'Content-Type': 'application/octet-stream',
    'Content-Range': 'bytes 0-16383/1000000',
    ETag: '"endless"',
  });
  const chunk = Buffer.alloc(64 * 1024);
  const pump = () => {
    while (response.write(chunk));
  };
  response.on('drain', pump);
  request.socket.on('close', () => response.off('drain', pump));
  pump();
}

/** Headers of a 206, then not another byte. */
export function stalledBody(_request: IncomingMessage, response: ServerResponse): void {
  response.writeHead(206, {
    'Content-Type': 'application/octet-stream',
    'Content-Range': 'bytes 0-16383/1000000',
    ETag: '"stalled"',
  });
  response.flushHeaders();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { writeFileSync } = await import('node:fs');
  const bomb = brotliCompressSync(new Uint8Array(1024 ** 3), {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_LGWIN]: 24 },
  });
  writeFileSync(new URL('./hostile-brotli-1gib.br', import.meta.url), bomb);
}
