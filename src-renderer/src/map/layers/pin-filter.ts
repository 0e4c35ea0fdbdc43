// The map's share of the one filter (search, colour, group, visit age, reminder due): which pins
// the clustered source holds, so that clusters and their counts show exactly the list's set.
//
// Design (the scale bench's filter keys; numbers in docs/perf-log.md): a layer `filter` hides
// single pins but not the points inside clusters, and feature-state cannot filter clusters
// either; a source `filter` is applied once when data is loaded and drops what it rejects for
// good; setData of the filtered subset posts every shown feature to MapLibre's worker, and that
// structured clone alone is a long task of the UI thread at 100k pins.
// So a large version (URL_RELOAD_MIN pins or more, written to a blob: URL in slices) is loaded
// through a pins request (pins-request.ts): MapLibre's worker keeps its whole set, and a filter
// change sends only one byte per pin saying which are shown; the worker picks those pins from
// what it holds. Diffs of features were serialised on the UI thread, and a wide change (a reset
// to 100k, a visit bucket of 40k) was the JSON text of every shown pin written on the UI thread
// and parsed again in the worker, the next change waiting for both.
// A small version (built at once, loaded as objects) is brought to a filter by `updateData`
// diffs: the ids that leave and the features that come back, cheap at that size.
// One request is with the worker at a time (it re-clusters after each, off the UI thread): the
// next is computed when it is done, against the filter of that moment. MapLibre would otherwise
// merge diffs waiting behind a busy worker, or drop a waiting load for a later setData. So the
// last state wins, states overtaken while the worker was busy are never sent, and nothing is
// sent twice.
import type { FeatureCollection, Point } from 'geojson';
import type { GeoJSONSource } from 'maplibre-gl';
import type { CustomerProps, PinFeature } from './geojson';
import { pinsRequestUrl } from './pins-request';
import { listInputGate, type RedrawGate } from '../redraw-gate';

/** Most features sent back into the clustered source of a small version per diff. */
export const ADD_CHUNK = 10_000;

/** Performance mark after a filter pass whose target the source now holds (bench and tests). */
export const MAP_FILTER_APPLIED_MARK = 'fieldmap:map-filter-applied';

export type PinFilterHost = {
  /** The clustered source (undefined before the style holds it). */
  source(): GeoJSONSource | undefined;
  /** True when the clustered source should hold the feature id now. */
  wanted(fid: number): boolean;
};

export type PinCollection = FeatureCollection<Point, CustomerProps>;

export class PinFilter {
  #host: PinFilterHost;
  #features: readonly PinFeature[] = [];
  /** 1 for each feature id the clustered source holds now. */
  #held = new Uint8Array(0);
  /** MapLibre's worker keeps this version's whole set: a change sends the shown bytes. */
  #whole = false;
  #timer: ReturnType<typeof setTimeout> | null = null;
  /** A request is with MapLibre's worker: the next pass waits for it. */
  #inFlight = false;
  /** Counts requests sent: only the last one's end ends #inFlight. */
  #sent = 0;
  /** The wanted set changed since the last pass. */
  #dirty = false;
  #disposed = false;
  /** Told while this filter still brings the source to the wanted set (redraw-gate.ts). */
  #gate: RedrawGate;

  constructor(host: PinFilterHost, gate: RedrawGate = listInputGate) {
    this.#host = host;
    this.#gate = gate;
  }

  /**
   * A new data version, its features by feature id. `pins`: a blob: URL of all of them (a
   * large version, taken over: revoked once loaded), or null. With `send` the source is loaded
   * with the wanted ones now; without, it holds every feature already (the style's data).
   */
  load(collection: PinCollection, pins: string | null, send: boolean): void {
    this.#cancel();
    const features = collection.features;
    this.#features = features;
    this.#held = this.#wantedBits();
    const source = send ? this.#host.source() : undefined;
    this.#whole = pins !== null && source !== undefined;
    if (!source) {
      if (pins !== null) URL.revokeObjectURL(pins);
      this.#report();
      return;
    }
    this.#dirty = false;
    const all = this.#held.every((b) => b === 1);
    if (pins !== null) {
      const shown = all ? undefined : bytesUrl(this.#held);
      this.#send(source.setData(pinsRequestUrl({ pins, shown })), [pins, shown]);
    } else {
      const wanted = all ? features : features.filter((f) => this.#held[f.id as number] === 1);
      this.#send(
        source.setData(all ? collection : { type: 'FeatureCollection', features: wanted }),
      );
    }
    this.#report();
  }

  /** True when the clustered source holds this feature id now. */
  holds(fid: number): boolean {
    return this.#held[fid] === 1;
  }

  /** The wanted set changed: bring the source to it (now, or once the worker's request is done). */
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

  /** 1 for each feature id wanted now. */
  #wantedBits(): Uint8Array<ArrayBuffer> {
    const bits = new Uint8Array(this.#features.length);
    for (let fid = 0; fid < bits.length; fid++) if (this.#host.wanted(fid)) bits[fid] = 1;
    return bits;
  }

  /** `sent` is with the worker until it settles; then the next pass, if the wanted set moved. */
  #send(sent: Promise<void>, urls: Array<string | undefined> = []): void {
    const token = ++this.#sent;
    this.#inFlight = true;
    const done = () => {
      for (const url of urls) if (url !== undefined) URL.revokeObjectURL(url);
      if (token !== this.#sent) return;
      this.#inFlight = false;
      if (this.#dirty && this.#timer === null && !this.#disposed) this.#pass();
      this.#report();
    };
    sent.then(done, done);
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
    if (this.#whole) return this.#sendShown(source);
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
    else this.#dirty = true; // the rest goes once this diff is done
    if (remove.length === 0 && add.length === 0) return;
    this.#send(source.updateData({ remove, add }));
  }

  /** A large version: the worker picks the wanted pins from the whole set it keeps. */
  #sendShown(source: GeoJSONSource): void {
    const wanted = this.#wantedBits();
    const held = this.#held;
    let same = true;
    let all = true;
    for (let fid = 0; fid < wanted.length; fid++) {
      if (wanted[fid] !== held[fid]) same = false;
      if (wanted[fid] === 0) all = false;
    }
    performance.mark(MAP_FILTER_APPLIED_MARK);
    if (same) return;
    this.#held = wanted;
    const shown = all ? undefined : bytesUrl(wanted);
    this.#send(source.setData(pinsRequestUrl({ shown })), [shown]);
  }
}

/** A blob: URL of one byte per feature id (revoke it once the worker has read it). */
function bytesUrl(bits: Uint8Array<ArrayBuffer>): string {
  return URL.createObjectURL(new Blob([bits], { type: 'application/octet-stream' }));
}
