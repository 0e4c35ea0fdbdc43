// What the page asks MapLibre's worker to load into the clustered source of a large pin set, as
// the URL of `setData` (maplibre.worker.ts reads it there): the version's whole set of pins
// (a blob: URL of its FeatureCollection, pin-blob.ts), which pins of it are shown (a blob: URL
// of one byte per feature id, 1 = shown), or both.
//
// Why: the worker keeps the whole set it parsed, so a filter change sends only the shown bytes
// (100 KB at 100k pins, built in a few ms) and the worker picks those pins from what it holds.
// Writing the shown pins' JSON on the UI thread and parsing it again in the worker for every
// wide filter change (a reset, a bucket of 40k) was most of the time until the map held the
// filtered set, and the next change waited for that parse.

/** The scheme of a pins request (never fetched: the worker reads its parts). */
export const PINS_SCHEME = 'fieldmap-pins:';

export type PinsRequest = {
  /** The whole set of a new data version (a FeatureCollection in fid order); else the held one. */
  pins?: string;
  /** One byte per feature id, 1 = shown; none: every pin of the set. */
  shown?: string;
};

/** The URL that asks for `request`. */
export function pinsRequestUrl(request: PinsRequest): string {
  const query = new URLSearchParams();
  if (request.pins !== undefined) query.set('pins', request.pins);
  if (request.shown !== undefined) query.set('shown', request.shown);
  return `${PINS_SCHEME}?${query.toString()}`;
}

/** The request a URL asks for; null for any other URL. */
export function parsePinsRequest(url: string | undefined): PinsRequest | null {
  if (url === undefined || !url.startsWith(PINS_SCHEME)) return null;
  const query = new URLSearchParams(url.slice(url.indexOf('?') + 1));
  const request: PinsRequest = {};
  const pins = query.get('pins');
  const shown = query.get('shown');
  if (pins !== null) request.pins = pins;
  if (shown !== null) request.shown = shown;
  return request;
}

type Collection = { type: 'FeatureCollection'; features: Array<{ id?: unknown }> };

/** How the worker reads a blob: URL (fetch there; tests read blobs directly). */
export type ReadUrl = {
  json(url: string): Promise<unknown>;
  bytes(url: string): Promise<Uint8Array>;
};

/**
 * The worker's side, one per source: the whole set of the last version loaded, and the
 * FeatureCollection of the pins a request shows (the set itself, the same object each time,
 * when all are shown).
 */
export class HeldPins {
  #whole: Collection | null = null;

  async collection(request: PinsRequest, read: ReadUrl): Promise<Collection> {
    if (request.pins !== undefined) {
      const loaded = (await read.json(request.pins)) as Collection;
      if (loaded?.type !== 'FeatureCollection' || !Array.isArray(loaded.features)) {
        throw new Error('pins: not a FeatureCollection');
      }
      this.#whole = loaded;
    }
    const whole = this.#whole;
    if (whole === null) throw new Error('pins: no set loaded before a shown request');
    if (request.shown === undefined) return whole;
    const shown = await read.bytes(request.shown);
    const out: Collection['features'] = [];
    for (const f of whole.features) if (shown[f.id as number] === 1) out.push(f);
    return { type: 'FeatureCollection', features: out };
  }
}

type LoadResult = { data?: unknown; abandoned?: boolean };
type LoadParams = { request?: { url: string }; data?: unknown };

/** What pinsLoader needs of MapLibre's GeoJSON worker source (its names in MapLibre 6). */
export type PinsWorkerSource = {
  loadData?: (params: LoadParams) => Promise<LoadResult>;
  /** The index tiles are cut from. */
  _geoJSONIndex?: unknown;
  /** The worker tiles made from the index (cleared so that a reload cuts them again). */
  tileState?: { clearLoaded?: () => void };
};

/**
 * Makes `source` read pins requests (any other load is MapLibre's own). The source is loaded
 * with the shown pins as data, so MapLibre posts nothing back to the page. The index built for
 * every pin of a version is kept: a reset to it (the most common wide change, 100k pins to
 * re-cluster) takes it back at once instead of clustering them again.
 */
export function pinsLoader(source: PinsWorkerSource, read: ReadUrl): void {
  const load = source.loadData;
  if (!load) return;
  const held = new HeldPins();
  let whole: { data: Collection; index: unknown } | null = null;
  source.loadData = async (params) => {
    const request = parsePinsRequest(params.request?.url);
    if (!request) return load.call(source, params);
    if (request.pins !== undefined) whole = null;
    const data = await held.collection(request, read);
    const tiles = source.tileState;
    if (whole?.data === data && typeof tiles?.clearLoaded === 'function') {
      source._geoJSONIndex = whole.index;
      tiles.clearLoaded();
      return {};
    }
    const { request: _url, ...rest } = params;
    const result = await load.call(source, { ...rest, data });
    const index = source._geoJSONIndex;
    if (request.shown === undefined && !result.abandoned && index !== undefined) {
      whole = { data, index };
    }
    return result;
  };
}
