// The URLs a style or TileJSON names, read in a worker thread (style-worker.ts, through
// core/untrusted/parse-worker.ts): the document comes from a host an administrator or a web page
// named, up to MAX_LEARNED_JSON_BYTES, and a crafted one (nested a million deep, or a huge
// array) would hold main's event loop for its whole parse. Main checks each URL it gets back.

/** Largest style or TileJSON whose hosts are learned (real styles are tens of KiB). */
export const MAX_LEARNED_JSON_BYTES = 2 * 1024 * 1024;
/** Most URLs one style or TileJSON may name to be learned from. */
export const MAX_LEARNED_URLS = 1_000;

/** Deepest nesting of a style's arrays and objects (a style's expressions stay far below). */
export const MAX_STYLE_DEPTH = 128;

/** Whether JSON text nests its arrays and objects deeper than `max` (strings skipped). */
function nestedDeeper(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** Thrown for a document that is not a style or TileJSON: its message is the reason. */
export class StyleRefused extends Error {
  override readonly name = 'StyleRefused';
}

/** The strings at `url`, `tiles` of the document and of each of its `sources`, at most 1,000. */
export function learnableUrls(data: Uint8Array): string[] {
  if (data.byteLength > MAX_LEARNED_JSON_BYTES) throw new StyleRefused('it is larger than 2 MiB');
  const text = new TextDecoder().decode(data);
  // Checked before the parse, which would build every level.
  if (nestedDeeper(text, MAX_STYLE_DEPTH))
    throw new StyleRefused(`it is nested deeper than ${MAX_STYLE_DEPTH} levels`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new StyleRefused('it is not JSON');
  }
  const urls: string[] = [];
  const add = (u: unknown) => {
    if (typeof u === 'string' && urls.length < MAX_LEARNED_URLS) urls.push(u);
  };
  const collect = (o: unknown) => {
    if (!o || typeof o !== 'object') return;
    const record = o as { url?: unknown; tiles?: unknown };
    add(record.url);
    if (Array.isArray(record.tiles)) record.tiles.slice(0, MAX_LEARNED_URLS).forEach(add);
  };
  collect(json);
  const sources = (json as { sources?: unknown } | null)?.sources;
  if (sources && typeof sources === 'object') {
    for (const source of Object.values(sources).slice(0, MAX_LEARNED_URLS)) collect(source);
  }
  return urls;
}
