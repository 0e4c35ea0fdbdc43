// PinFilter (the map's share of the list's filter): the clustered source is brought to the
// wanted set by diffs, one with MapLibre's worker at a time, computed when sent, so the last
// wanted set wins and a state overtaken meanwhile is never sent; bringing back more than
// ADD_CHUNK pins reloads the source once from a blob: URL of the wanted pins instead.
import { resolveObjectURL } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import type { GeoJSONSource } from 'maplibre-gl';
import { ADD_CHUNK, PinFilter } from '../../src-renderer/src/map/layers/pin-filter';
import type { PinFeature } from '../../src-renderer/src/map/layers/geojson';
import { until } from '../support/until';

type Diff = { remove: number[]; add: PinFeature[] };

/** A stand-in for the clustered source: records each diff; `finish()` ends the one in flight. */
function fakeSource() {
  const sent: Diff[] = [];
  const urls: string[] = [];
  const pending: Array<() => void> = [];
  const source = {
    updateData(diff: Diff): Promise<void> {
      sent.push(diff);
      return new Promise<void>((resolve) => pending.push(resolve));
    },
    setData(url: string): Promise<void> {
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
    const { sent, source, finish, busy } = fakeSource();
    let wanted = (fid: number) => fid < 10;
    const filter = new PinFilter({ source: () => source, wanted: (fid) => wanted(fid) });
    const all = features(10);
    expect(filter.load(all)).toBe(all); // every pin wanted: the array itself is loaded
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

  it('brings back more than ADD_CHUNK pins in one reload from a URL of the wanted pins', async () => {
    const { sent, urls, source, finish } = fakeSource();
    let wanted = (_fid: number) => false;
    const n = ADD_CHUNK * 2 + 5;
    const all = features(n);
    const filter = new PinFilter({ source: () => source, wanted: (fid) => wanted(fid) });
    expect(filter.load(all)).toEqual([]);

    wanted = (fid) => fid !== 7;
    filter.update();
    // The URL is written in slices: wait for it, no diff is sent meanwhile.
    await until(() => urls.length > 0, 'the URL written');
    expect(sent).toEqual([]);
    expect(urls).toHaveLength(1);
    const blob = resolveObjectURL(urls[0]!);
    const loaded = JSON.parse(await blob!.text()) as { type: string; features: PinFeature[] };
    expect(loaded.type).toBe('FeatureCollection');
    expect(loaded.features).toEqual(all.filter((f) => f.id !== 7));
    await finish();
    // Revoked once loaded; a small change after it is a diff against the reloaded set.
    expect(resolveObjectURL(urls[0]!)).toBeUndefined();
    wanted = (fid) => fid !== 7 && fid !== 8;
    filter.update();
    expect(sent).toEqual([{ remove: [8], add: [] }]);
    filter.dispose();
  });
});
