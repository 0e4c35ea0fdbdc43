// `npx tsx scripts/build-basemap-assets.ts`: regenerates the bundled offline basemap under
// src-renderer/public (GeoJSON layers and SDF glyph PBFs). The output is committed, so neither
// `npm run build` nor the tests need this step; rerun it only when the data or the font changes.
// It is deterministic: the same packages and font give byte-identical files.
import { mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { buildBasemapData, labelCharacters } from './basemap/geodata';
import { encodeGlyphRange } from './basemap/glyph-pbf';
import { rasteriseFonts, type FontJob } from './basemap/glyphs';

const ROOT = resolve(import.meta.dirname, '..');
const PUBLIC = join(ROOT, 'src-renderer/public');
const FONT_DIR = '/usr/share/fonts/truetype/dejavu';

/** Basic Latin + Latin-1, Latin Extended-A/B, General Punctuation (dashes, quotes). */
export const GLYPH_RANGES = [0, 256, 8192];

const FONTS: FontJob[] = [
  { fontstack: 'DejaVu Sans Book', file: join(FONT_DIR, 'DejaVuSans.ttf'), ranges: GLYPH_RANGES },
  {
    fontstack: 'DejaVu Sans Bold',
    file: join(FONT_DIR, 'DejaVuSans-Bold.ttf'),
    ranges: GLYPH_RANGES,
  },
];

async function writeData(): Promise<void> {
  const data = buildBasemapData();
  const dir = join(PUBLIC, 'basemap');
  await mkdir(dir, { recursive: true });
  const files: Record<string, unknown> = {
    'land.geojson': data.land,
    'country-borders.geojson': data.countryBorders,
    'state-borders.geojson': data.stateBorders,
    'places.geojson': data.places,
  };
  for (const [name, value] of Object.entries(files)) {
    await writeFile(join(dir, name), JSON.stringify(value));
  }
  const missing = [...labelCharacters(data)].filter(
    (c) => !GLYPH_RANGES.some((start) => c >= start && c < start + 256),
  );
  if (missing.length > 0) {
    throw new Error(
      `label characters outside the glyph ranges: ${missing.map((c) => c.toString(16))}`,
    );
  }
}

async function writeGlyphs(): Promise<void> {
  const glyphs = await rasteriseFonts(FONTS);
  const root = join(PUBLIC, 'glyphs');
  for (const [fontstack, ranges] of glyphs) {
    const dir = join(root, fontstack);
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    for (const [start, list] of ranges) {
      await writeFile(
        join(dir, `${start}-${start + 255}.pbf`),
        encodeGlyphRange(fontstack, start, list),
      );
    }
  }
}

async function report(dir: string): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    console.log(
      `${((await stat(path)).size / 1024).toFixed(1).padStart(8)} KiB  ${path.slice(ROOT.length + 1)}`,
    );
  }
}

const only = process.argv[2];
if (only !== 'glyphs') await writeData();
if (only !== 'data') await writeGlyphs();
await report(PUBLIC);
