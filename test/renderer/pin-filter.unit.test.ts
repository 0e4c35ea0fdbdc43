// PinFilter (the map's share of the list's filter): one request with MapLibre's worker at a
// time, computed when sent, so the last wanted set wins and a state overtaken meanwhile is never
// sent. A small version is brought to the wanted set by diffs; a large one (loaded from a blob:
// URL of every pin) by the bytes of which pins are shown, which the worker's HeldPins
// (pins-request.ts) picks from the whole set it keeps: no pin's JSON is written again.
import { resolveObjectURL } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import type { GeoJSONSource } from 'maplibre-gl';
import { PinFilter, type PinCollection } from '../../src-renderer/src/map/layers/pin-filter';
import type { PinFeature } from '../../src-renderer/src/map/layers/geojson';
import {
  HeldPins,
  parsePinsRequest,
  pinsLoader,
  pinsRequestUrl,
  type PinsWorkerSource,
  type ReadUrl,
} from '../../src-renderer/src/map/layers/pins-request';

type Diff = { remove: number[]; add: PinFeature[] };

/** A stand-in for the clustered source: records each diff; `finish()` ends the one in flight. */
function fakeSource() {
  const sent: Diff[] = [];
  const urls: Array<string | PinCollection> = [];
  const pending: Array<() => void> = [];
  const source = {
    updateData(diff: Diff): Promise<void> {
      sent.push(diff);
      return new Promise<void>((resolve) => pending.push(resolve));
    },
    setData(url: string | PinCollection): Promise<void> {
      urls.push(url);
      return new Promise<void>((resolve) => pending.push(resolve));
    },
  };
  const finish = async () => {
    pending.shift()?.();
    await new Promise((r) => setTimeout(r, 0));
  };
  return {
    sent,
    urls,
    source: source as unknown as GeoJSONSource,
    finish,
    busy: () => pending.length,
  };
}

function features(n: number): PinFeature[] {
  return Array.from({ length: n }, (_, i) => ({
    type: 'Feature',
    id: i,
    geometry: { type: 'Point', coordinates: [i / n, 0] },
    properties: {
      id: `c${i}`,
      name: `C ${i}`,
      color: 'red',
      pending: false,
      age: 'never',
      due: 'none',
    },
  }));
}

/** The feature ids the source holds after the diffs sent (starting from `start`). */
function held(start: Set<number>, sent: Diff[]): number[] {
  const ids = new Set(start);
  for (const d of sent) {
    for (const id of d.remove) ids.delete(id);
    for (const f of d.add) ids.add(f.id as number);
  }
  return [...ids].sort((a, b) => a - b);
}

describe('PinFilter', () => {
  it('sends only the difference, one diff in flight, and the last wanted set wins', async () => {
    const { sent, urls, source, finish, busy } = fakeSource();
    let wanted = (fid: number) => fid < 10;
    const filter = new PinFilter({ source: () => source, wanted: (fid) => wanted(fid) });
    const all = features(10);
    // A small version the style already holds: nothing is sent.
    filter.load(collection(all), null, false);
    expect(urls).toEqual([]);
    const start = new Set(all.map((f) => f.id as number));

    wanted = (fid) => fid % 2 === 0;
    filter.update();
    expect(sent).toEqual([{ remove: [1, 3, 5, 7, 9], add: [] }]);

    // Two changes while the worker is busy: nothing is sent until it is done, then only the last.
    wanted = (fid) => fid < 3;
    filter.update();
    wanted = (fid) => fid === 9;
    filter.update();
    expect(sent).toHaveLength(1);
    await finish();
    expect(sent).toHaveLength(2);
    expect(sent[1]).toEqual({ remove: [0, 2, 4, 6, 8], add: [all[9]] });
    await finish();
    expect(busy()).toBe(0);
    expect(held(start, sent)).toEqual([9]);
    filter.dispose();
  });

  it('sends a large version only which pins are shown, and the worker picks them from its set', async () => {
    const { sent, urls, source, finish, busy } = fakeSource();
    let wanted = (fid: number) => fid !== 7;
    const filter = new PinFilter({ source: () => source, wanted: (fid) => wanted(fid) });
    const all = features(50);
    const pins = URL.createObjectURL(new Blob([JSON.stringify(collection(all))]));
    const worker = new HeldPins();
    /** What the worker loads the source with for the request sent last. */
    const loaded = async () => {
      const request = parsePinsRequest(urls.at(-1) as string);
      expect(request).not.toBeNull();
      const { features } = await worker.collection(request!, read);
      return features.map((f) => f.id);
    };
    const ids = (keep: (fid: number) => boolean) =>
      all.map((f) => f.id as number).filter((fid) => keep(fid));

    // The version's load: every pin, and the bytes of the shown ones.
    filter.load(collection(all), pins, true);
    expect(urls).toHaveLength(1);
    expect(parsePinsRequest(urls[0] as string)?.pins).toBe(pins);
    expect(await loaded()).toEqual(ids((fid) => fid !== 7));

    // A change while the load is with the worker waits for it; then only the shown bytes go.
    wanted = (fid) => fid < 3;
    filter.update();
    expect(urls).toHaveLength(1);
    await finish();
    // Both URLs of the load are revoked once it is done.
    expect(resolveObjectURL(pins)).toBeUndefined();
    expect(urls).toHaveLength(2);
    expect(parsePinsRequest(urls[1] as string)?.pins).toBeUndefined();
    expect(await loaded()).toEqual([0, 1, 2]);

    // Two changes while the worker is busy: only the last is sent, a reset to every pin.
    wanted = (fid) => fid === 9;
    filter.update();
    wanted = () => true;
    filter.update();
    await finish();
    expect(urls).toHaveLength(3);
    expect(parsePinsRequest(urls[2] as string)).toEqual({});
    expect(await loaded()).toEqual(ids(() => true));
    await finish();
    expect(busy()).toBe(0);
    // The same wanted set again sends nothing; no diff was ever sent.
    filter.update();
    expect(urls).toHaveLength(3);
    expect(sent).toEqual([]);
    filter.dispose();
  });
});

describe('HeldPins (the worker side)', () => {
  it('keeps the set of the last version and picks the shown pins of it', async () => {
    const held = new HeldPins();
    await expect(held.collection({}, read)).rejects.toThrow(/no set/);
    const first = features(4);
    const second = features(3);
    const url = (value: unknown) => URL.createObjectURL(new Blob([JSON.stringify(value)]));
    const bytes = (b: number[]) => URL.createObjectURL(new Blob([new Uint8Array(b)]));
    const fids = async (request: Parameters<HeldPins['collection']>[0]) =>
      (await held.collection(request, read)).features.map((f) => f.id);
    expect(await fids({ pins: url(collection(first)), shown: bytes([1, 0, 1, 0]) })).toEqual([
      0, 2,
    ]);
    expect(await fids({ shown: bytes([0, 1, 1, 1]) })).toEqual([1, 2, 3]);
    expect(await fids({ pins: url(collection(second)) })).toEqual([0, 1, 2]);
    expect(await fids({ shown: bytes([0, 0, 1]) })).toEqual([2]);
    await expect(held.collection({ pins: url({ type: 'Feature' }) }, read)).rejects.toThrow();
  });
});

describe('pinsLoader (the worker source)', () => {
  it('loads the shown pins as data, and takes back the index of every pin on a reset', async () => {
    const loads: Array<{ url?: string; ids?: unknown[] }> = [];
    let cleared = 0;
    let built = 0;
    const source: PinsWorkerSource = {
      loadData(params) {
        const data = params.data as { features: Array<{ id: unknown }> } | undefined;
        loads.push({ url: params.request?.url, ids: data?.features.map((f) => f.id) });
        source._geoJSONIndex = { built: ++built };
        return Promise.resolve({});
      },
      tileState: { clearLoaded: () => cleared++ },
    };
    pinsLoader(source, read);
    const load = (url: string) => source.loadData!({ request: { url } });
    const blob = (part: BlobPart) => URL.createObjectURL(new Blob([part]));
    const pins = blob(JSON.stringify(collection(features(3))));

    await load(pinsRequestUrl({ pins }));
    expect(loads).toEqual([{ url: undefined, ids: [0, 1, 2] }]);
    await load(pinsRequestUrl({ shown: blob(new Uint8Array([0, 1, 0])) }));
    expect(loads[1]).toEqual({ url: undefined, ids: [1] });
    expect(source._geoJSONIndex).toEqual({ built: 2 });
    // Every pin again: the index built for them, no new clustering.
    await load(pinsRequestUrl({}));
    expect(loads).toHaveLength(2);
    expect(source._geoJSONIndex).toEqual({ built: 1 });
    expect(cleared).toBe(1);
    // A new version is loaded and clustered anew; any other URL is MapLibre's own.
    await load(pinsRequestUrl({ pins: blob(JSON.stringify(collection(features(2)))) }));
    expect(loads[2]).toEqual({ url: undefined, ids: [0, 1] });
    await load('https://example.com/data.geojson');
    expect(loads[3]).toEqual({ url: 'https://example.com/data.geojson', ids: undefined });
  });
});

/** Reads blob: URLs as MapLibre's worker does with fetch. */
const read: ReadUrl = {
  json: async (url) => JSON.parse(await resolveObjectURL(url)!.text()) as unknown,
  bytes: async (url) => new Uint8Array(await resolveObjectURL(url)!.arrayBuffer()),
};

function collection(features: PinFeature[]): PinCollection {
  return { type: 'FeatureCollection', features };
}
