// Rasterises SDF glyphs of a TrueType font with @mapbox/tiny-sdf (MapLibre's own rasteriser) in
// headless Chromium, with the metrics MapLibre's glyph PBFs use (24 px, 3 px buffer, radius 8).
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../chromium';
import type { SdfGlyph } from './glyph-pbf';

const require = createRequire(import.meta.url);

export interface FontJob {
  fontstack: string;
  file: string;
  ranges: number[];
}

/** MapLibre aligns glyphs of PBFs 27.5 px below its local ones (glyph_manager.ts topAdjustment). */
const TOP_ADJUSTMENT = 27.5;

type RawGlyph = Omit<SdfGlyph, 'bitmap'> & { bitmap: number[] };

/** The glyphs of each job's ranges, keyed by fontstack then range start. */
export async function rasteriseFonts(
  jobs: FontJob[],
): Promise<Map<string, Map<number, SdfGlyph[]>>> {
  const tinySdf = (await readFile(require.resolve('@mapbox/tiny-sdf'), 'utf8')).replace(
    'export default class TinySDF',
    'globalThis.TinySDF = class TinySDF',
  );
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS],
  });
  const result = new Map<string, Map<number, SdfGlyph[]>>();
  try {
    const page = await browser.newPage();
    await page.addScriptTag({ content: tinySdf });
    for (const job of jobs) {
      const font = (await readFile(job.file)).toString('base64');
      const byRange = new Map<number, SdfGlyph[]>();
      for (const start of job.ranges) {
        const raw = await page.evaluate(rasteriseInPage, { font, start, top: TOP_ADJUSTMENT });
        byRange.set(
          start,
          raw.map((g: RawGlyph) => ({ ...g, bitmap: Uint8Array.from(g.bitmap) })),
        );
      }
      result.set(job.fontstack, byRange);
    }
  } finally {
    await browser.close();
  }
  return result;
}

/** Runs in the page: loads the font under a private family name and draws each codepoint. */
async function rasteriseInPage(args: {
  font: string;
  start: number;
  top: number;
}): Promise<RawGlyph[]> {
  // Page code: the Node type config has no DOM lib, so the browser globals are typed here.
  type Sdf = {
    draw(char: string): {
      data: Uint8ClampedArray;
      glyphWidth: number;
      glyphHeight: number;
      glyphTop: number;
      glyphLeft: number;
      glyphAdvance: number;
    };
  };
  const g = globalThis as unknown as {
    TinySDF: new (o: object) => Sdf;
    FontFace: new (family: string, data: ArrayBuffer) => { load(): Promise<unknown> };
    document: { fonts: { add(face: unknown): void } };
    atob(s: string): string;
  };
  const binary = g.atob(args.font);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  const family = `fieldmap-glyphs-${args.start}-${bytes.length}`;
  const face = new g.FontFace(family, bytes.buffer);
  await face.load();
  g.document.fonts.add(face);
  const sdf = new g.TinySDF({
    fontSize: 24,
    buffer: 3,
    radius: 8,
    cutoff: 0.25,
    fontFamily: family,
  });
  const glyphs: RawGlyph[] = [];
  for (let id = args.start; id < args.start + 256; id++) {
    // Control characters and surrogates have no glyph.
    if (id < 32 || (id >= 127 && id < 160) || (id >= 0xd800 && id <= 0xdfff)) continue;
    const c = sdf.draw(String.fromCodePoint(id));
    glyphs.push({
      id,
      bitmap: Array.from(c.data),
      width: c.glyphWidth,
      height: c.glyphHeight,
      left: c.glyphLeft,
      top: Math.round(c.glyphTop - args.top),
      advance: Math.round(c.glyphAdvance),
    });
  }
  return glyphs;
}
