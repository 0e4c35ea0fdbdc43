// The zip container of an .xlsx, read strictly: the central directory (every offset bounds-
// checked), only the parts asked for, each inflated by Node's zlib with a hard cap on its output
// (maxOutputLength), shared by every part read, so a zip bomb stops at the cap instead of
// filling memory. Encrypted entries and zip64 (never needed under the 20 MB file cap) are refused.
import { inflateRawSync } from 'node:zlib';

/** What the reader throws: its message is what the rep reads. */
export class XlsxError extends Error {
  override readonly name = 'XlsxError';
}

export const NOT_XLSX =
  'This file is not an Excel workbook (.xlsx) Fieldmap can read. Open it in Excel and save it as .xlsx or CSV.';

/** Bytes all the parts read may unpack to, together. */
export const MAX_UNZIPPED_BYTES = 200 * 1024 * 1024;
/** Entries of the archive: a workbook has a few dozen parts, a few hundred with many pictures. */
export const MAX_ZIP_ENTRIES = 10_000;

const bombMessage = (part: string, cap: number) =>
  `This spreadsheet unpacks to more than ${cap / 1024 / 1024} MB (${part}), ` +
  'more than Fieldmap reads. Save the customers you need as a smaller file or CSV.';

interface Entry {
  method: number;
  compressedSize: number;
  localOffset: number;
}

export class ZipParts {
  readonly #bytes: Uint8Array;
  readonly #view: DataView;
  readonly #entries = new Map<string, Entry>();
  #left = MAX_UNZIPPED_BYTES;

  constructor(bytes: Uint8Array) {
    this.#bytes = bytes;
    this.#view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.#readDirectory();
  }

  has(name: string): boolean {
    return this.#entries.has(name);
  }

  /**
   * A part as UTF-8 text; null when the archive has no such part. `maxBytes` caps this part
   * (a small part such as the styles) below what is left of the shared cap.
   */
  text(name: string, maxBytes = MAX_UNZIPPED_BYTES): string | null {
    const entry = this.#entries.get(name);
    if (!entry) return null;
    const data = this.#unpack(name, entry, maxBytes);
    return new TextDecoder('utf-8', { fatal: false }).decode(data);
  }

  #u16(at: number): number {
    if (at < 0 || at + 2 > this.#bytes.length) throw new XlsxError(NOT_XLSX);
    return this.#view.getUint16(at, true);
  }

  #u32(at: number): number {
    if (at < 0 || at + 4 > this.#bytes.length) throw new XlsxError(NOT_XLSX);
    return this.#view.getUint32(at, true);
  }

  #readDirectory(): void {
    const bytes = this.#bytes;
    // The end record is in the last 22 + 65,535 (comment) bytes.
    let end = -1;
    for (let at = bytes.length - 22; at >= 0 && at >= bytes.length - 22 - 0xffff; at--) {
      if (this.#u32(at) === 0x06054b50) {
        end = at;
        break;
      }
    }
    if (end < 0) throw new XlsxError(NOT_XLSX);
    const count = this.#u16(end + 10);
    const offset = this.#u32(end + 16);
    if (count === 0xffff || offset === 0xffffffff) throw new XlsxError(NOT_XLSX);
    if (count > MAX_ZIP_ENTRIES) {
      throw new XlsxError(
        `This spreadsheet has ${count.toLocaleString('en')} parts; Fieldmap reads workbooks of up to ` +
          `${MAX_ZIP_ENTRIES.toLocaleString('en')}. Save the customers you need as a new workbook or CSV.`,
      );
    }
    let at = offset;
    for (let i = 0; i < count; i++) {
      if (this.#u32(at) !== 0x02014b50) throw new XlsxError(NOT_XLSX);
      const flags = this.#u16(at + 8);
      const method = this.#u16(at + 10);
      const compressedSize = this.#u32(at + 20);
      const nameLength = this.#u16(at + 28);
      const extraLength = this.#u16(at + 30);
      const commentLength = this.#u16(at + 32);
      const localOffset = this.#u32(at + 42);
      if (at + 46 + nameLength > bytes.length) throw new XlsxError(NOT_XLSX);
      const name = new TextDecoder().decode(bytes.subarray(at + 46, at + 46 + nameLength));
      if (flags & 0x1) {
        throw new XlsxError(
          'This spreadsheet is protected with a password. Open it in Excel, remove the password and save it again, or save it as CSV.',
        );
      }
      if (this.#entries.has(name)) throw new XlsxError(NOT_XLSX);
      this.#entries.set(name, { method, compressedSize, localOffset });
      at += 46 + nameLength + extraLength + commentLength;
    }
  }

  #unpack(name: string, entry: Entry, maxBytes: number): Uint8Array {
    // The shared cap is named when it is what runs out; a part's own cap otherwise.
    const cap = Math.min(this.#left, maxBytes);
    const over = () =>
      new XlsxError(bombMessage(name, maxBytes < this.#left ? maxBytes : MAX_UNZIPPED_BYTES));
    const at = entry.localOffset;
    if (this.#u32(at) !== 0x04034b50) throw new XlsxError(NOT_XLSX);
    const start = at + 30 + this.#u16(at + 26) + this.#u16(at + 28);
    const stop = start + entry.compressedSize;
    if (stop > this.#bytes.length) throw new XlsxError(NOT_XLSX);
    const data = this.#bytes.subarray(start, stop);
    let out: Uint8Array;
    if (entry.method === 0) out = data;
    else if (entry.method === 8) {
      if (cap <= 0) throw over();
      try {
        out = inflateRawSync(data, { maxOutputLength: cap });
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        if (code === 'ERR_BUFFER_TOO_LARGE') throw over();
        throw new XlsxError(NOT_XLSX);
      }
    } else throw new XlsxError(NOT_XLSX);
    if (out.length > cap) throw over();
    this.#left -= out.length;
    return out;
  }
}
