// The map's share of the one filter (search, colour, group, visit age, reminder due): which pins
// the clustered source holds, so that clusters and their counts show exactly the list's set.
//
// Design (the scale bench's filter keys; numbers in docs/perf-log.md): a layer `filter` hides
// single pins but not the points inside clusters, and feature-state cannot filter clusters
// either; a source `filter` is applied once when data is loaded and drops what it rejects for
// good; setData of the filtered subset posts every shown feature to MapLibre's worker, and that
// structured clone alone is a long task of the UI thread at 100k pins. So the clustered source
// keeps its one feature array (built once per data version) and a filter change sends only the
// difference with `updateData`: the ids that leave (plain numbers, cheap to clone) and the
// features that come back, at most ADD_CHUNK per message, so a reset from a narrow filter to
// 100k pins never makes a long task.
// One diff is with the worker at a time (it re-clusters after each, off the UI thread): the
// next is computed when it is done, against the filter of that moment. MapLibre would otherwise
// merge diffs waiting behind a busy worker (a profile showed the merging and the one big
// serialisation of the merged diff as the UI thread's largest map cost). So the last state wins,
// states overtaken while the worker was busy are never sent, and nothing is sent twice.
// A colour, group or visit filter change costs the map a short task (the bitmap of the shown
// ids, the scan, one diff). Bringing back more than ADD_CHUNK pins (a reset from a narrow
// filter to 100k) took a diff per chunk, each re-clustered by the worker, seconds in all: such a
// change reloads the source from a blob: URL of the wanted pins (pin-blob.ts, written in
// slices), one parse and one re-cluster in the worker.
import type { GeoJSONSource } from 'maplibre-gl';
import type { PinFeature } from './geojson';
import { pinsBlobUrl } from './pin-blob';
import { listInputGate, type RedrawGate } from '../redraw-gate';

/** Most features sent back into the clustered source per message (a short task to serialise). */
export const ADD_CHUNK = 10_000;

/** Performance mark after a filter pass whose target the source now holds (bench and tests). */
export const MAP_FILTER_APPLIED_MARK = 'fieldmap:map-filter-applied';

export type PinFilterHost = {
  /** The clustered source (undefined before the style holds it). */
  source(): GeoJSONSource | undefined;
  /** True when the clustered source should hold the feature id now. */
  wanted(fid: number): boolean;
};

export class PinFilter {
  #host: PinFilterHost;
  #features: readonly PinFeature[] = [];
  /** 1 for each feature id the clustered source holds now. */
  #held = new Uint8Array(0);
  #timer: ReturnType<typeof setTimeout> | null = null;
  /** A diff is with MapLibre's worker: the next pass waits for it. */
  #inFlight = false;
  /** The wanted set changed since the last pass. */
  #dirty = false;
  #disposed = false;
  /** Counts data versions: a URL being written for an older one is dropped. */
  #version = 0;
  /** Told while this filter still brings the source to the wanted set (redraw-gate.ts). */
  #gate: RedrawGate;

  constructor(host: PinFilterHost, gate: RedrawGate = listInputGate) {
    this.#host = host;
    this.#gate = gate;
  }

  /**
   * A new data version: its features by feature id; returns those to load into the source
   * (the wanted ones: the whole array when every pin is wanted, else a subset of references).
   */
  load(features: readonly PinFeature[]): PinFeature[] {
    this.#cancel();
    this.#version++;
    this.#features = features;
    this.#held = new Uint8Array(features.length);
    const out: PinFeature[] = [];
    for (let fid = 0; fid < features.length; fid++) {
      if (!this.#host.wanted(fid)) continue;
      this.#held[fid] = 1;
      out.push(features[fid]!);
    }
    this.#report();
    return out.length === features.length ? (features as PinFeature[]) : out;
  }

  /** True when the clustered source holds this feature id now. */
  holds(fid: number): boolean {
    return this.#held[fid] === 1;
  }

  /** The wanted set changed: bring the source to it (now, or once the worker's diff is done). */
  update(): void {
    this.#dirty = true;
    if (!this.#inFlight && this.#timer === null) this.#pass();
    this.#report();
  }

  dispose(): void {
    this.#disposed = true;
    this.#cancel();
    this.#report();
  }

  /** Tells the gate whether the source is still on its way to the wanted set. */
  #report(): void {
    const busy = this.#inFlight || this.#dirty || this.#timer !== null;
    this.#gate.busy(this, busy && !this.#disposed);
  }

  #cancel(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
  }

  #pass(): void {
    this.#timer = null;
    if (this.#disposed) return;
    const source = this.#host.source();
    // Before the style has loaded the source it holds the data it was created with: try again.
    if (!source) {
      this.#timer = setTimeout(() => {
        this.#pass();
        this.#report();
      }, 100);
      return;
    }
    this.#dirty = false;
    if (this.#adds() > ADD_CHUNK) return void this.#reloadWanted(source);
    const remove: number[] = [];
    const add: PinFeature[] = [];
    let more = false;
    const held = this.#held;
    for (let fid = 0; fid < held.length; fid++) {
      const wanted = this.#host.wanted(fid);
      if (held[fid] === 1 && !wanted) {
        remove.push(fid);
        held[fid] = 0;
      } else if (held[fid] === 0 && wanted) {
        if (add.length === ADD_CHUNK) {
          more = true;
          continue;
        }
        add.push(this.#features[fid]!);
        held[fid] = 1;
      }
    }
    if (!more) performance.mark(MAP_FILTER_APPLIED_MARK);
    if (remove.length === 0 && add.length === 0) return;
    this.#inFlight = true;
    const done = () => {
      this.#inFlight = false;
      if ((more || this.#dirty) && this.#timer === null) this.#pass();
      this.#report();
    };
    source.updateData({ remove, add }).then(done, done);
  }

  /** How many wanted pins the source does not hold. */
  #adds(): number {
    let adds = 0;
    const held = this.#held;
    for (let fid = 0; fid < held.length; fid++) {
      if (held[fid] === 0 && this.#host.wanted(fid)) adds++;
    }
    return adds;
  }

  /** Replaces the source's data with every wanted pin, from a URL written in slices. */
  async #reloadWanted(source: GeoJSONSource): Promise<void> {
    this.#inFlight = true;
    const version = this.#version;
    const held = new Uint8Array(this.#features.length);
    const wanted: PinFeature[] = [];
    for (let fid = 0; fid < held.length; fid++) {
      if (!this.#host.wanted(fid)) continue;
      held[fid] = 1;
      wanted.push(this.#features[fid]!);
    }
    // A newer filter or data version makes this one moot: the next pass starts from it.
    const stale = () => this.#disposed || this.#dirty || version !== this.#version;
    const url = await pinsBlobUrl(wanted, stale);
    const done = () => {
      this.#inFlight = false;
      if (this.#dirty && this.#timer === null && !this.#disposed) this.#pass();
      this.#report();
    };
    if (!url || stale()) {
      if (url) URL.revokeObjectURL(url);
      return done();
    }
    this.#held = held;
    performance.mark(MAP_FILTER_APPLIED_MARK);
    source
      .setData(url)
      .then(done, done)
      .finally(() => URL.revokeObjectURL(url));
  }
}
