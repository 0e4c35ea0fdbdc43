// Encodes SDF glyphs in the glyphs PBF format MapLibre reads (the Mapbox "glyphs" protobuf):
// glyphs { repeated fontstack stacks = 1 }, fontstack { name = 1; range = 2; repeated glyph = 3 },
// glyph { id = 1; bitmap = 2; width = 3; height = 4; left = 5 (sint32); top = 6 (sint32); advance = 7 }.
// A tiny protobuf writer is all it takes, so no protobuf package is needed.

export interface SdfGlyph {
  id: number;
  /** (width + 6) x (height + 6) bytes: MapLibre expects a 3 px border around the glyph. */
  bitmap: Uint8Array;
  width: number;
  height: number;
  left: number;
  top: number;
  advance: number;
}

class ProtoWriter {
  #bytes: number[] = [];

  varint(value: number): this {
    let v = value >>> 0;
    if (value > 0xffffffff || value < 0) throw new RangeError(`varint out of range: ${value}`);
    while (v > 0x7f) {
      this.#bytes.push((v & 0x7f) | 0x80);
      v >>>= 7;
    }
    this.#bytes.push(v);
    return this;
  }

  uint(field: number, value: number): this {
    return this.varint((field << 3) | 0).varint(value);
  }

  sint(field: number, value: number): this {
    return this.uint(field, value >= 0 ? value * 2 : -value * 2 - 1);
  }

  bytes(field: number, data: Uint8Array): this {
    this.varint((field << 3) | 2).varint(data.length);
    for (const b of data) this.#bytes.push(b);
    return this;
  }

  string(field: number, text: string): this {
    return this.bytes(field, new TextEncoder().encode(text));
  }

  finish(): Uint8Array {
    return Uint8Array.from(this.#bytes);
  }
}

/** One PBF file: the glyphs of one fontstack and one 256-codepoint range. */
export function encodeGlyphRange(fontstack: string, start: number, glyphs: SdfGlyph[]): Uint8Array {
  const stack = new ProtoWriter().string(1, fontstack).string(2, `${start}-${start + 255}`);
  for (const g of glyphs) {
    const glyph = new ProtoWriter().uint(1, g.id);
    if (g.bitmap.length > 0) glyph.bytes(2, g.bitmap);
    glyph.uint(3, g.width).uint(4, g.height).sint(5, g.left).sint(6, g.top).uint(7, g.advance);
    stack.bytes(3, glyph.finish());
  }
  return new ProtoWriter().bytes(1, stack.finish()).finish();
}
