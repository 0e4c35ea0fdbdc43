// The map's redraws yield to the list while the rep works its filters and sorts. At 100k a list
// input's next frame came several times later whenever a map redraw fell between the input and
// that frame (the page gets no new frame until the GPU process has swapped the map's, and under
// software GL that is long), against the list's own work of a few frames at most. A gate
// released after a fixed pause still let a redraw start in the pause while the map's worker
// re-clustered, and the next input met its frame (docs/perf-log.md has the numbers). So after a
// list input (a filter, a sort) MapLibre's repaints wait until input has paused for
// REDRAW_PAUSE_MS and the map's source holds the filtered set (pin-filter.ts reports its work;
// drawing before that only redraws the old pins), then the map draws once. The filtered set
// still reaches the source at once; a rep moving the map, or a new data version (an edit's
// pin: CustomersState), ends the hold.
import type { Map as MapLibreMap } from 'maplibre-gl';

/** How long list input must pause before the map draws again (ms). */
export const REDRAW_PAUSE_MS = 200;
/** Longest the map waits after the last list input for its source to settle (ms). */
export const REDRAW_MAX_SETTLE_MS = 3_000;

export class RedrawGate {
  #held = false;
  #lastInput = 0;
  /** Input has paused REDRAW_PAUSE_MS since the last one (the hold waits on #busy only). */
  #paused = false;
  #timer: ReturnType<typeof setTimeout> | null = null;
  #waiting = new Set<() => void>();
  #listeners = new Set<() => void>();
  /** Who is still bringing the map's data to the last input (pin-filter.ts). */
  #busy = new Set<object>();
  #now: () => number;

  constructor(now: () => number = () => performance.now()) {
    this.#now = now;
  }

  /** True while the map's drawing waits for list input to pause. */
  get held(): boolean {
    return this.#held;
  }

  /** A list input (filter, sort): holds the map's drawing until input pauses. */
  input(): void {
    this.#lastInput = this.#now();
    this.#paused = false;
    if (!this.#held) {
      this.#held = true;
      for (const listener of this.#listeners) listener();
    }
    this.#arm(REDRAW_PAUSE_MS);
  }

  /**
   * `owner` is (or is no longer) bringing the map's data to the last input: a hold ends only
   * when it is done (the map would only draw the state before), or REDRAW_MAX_SETTLE_MS after
   * the last input at the latest.
   */
  busy(owner: object, busy: boolean): void {
    if (busy) this.#busy.add(owner);
    else if (this.#busy.delete(owner) && this.#busy.size === 0 && this.#paused) this.#release();
  }

  /** Ends a hold now (the rep moves the map itself). */
  release(): void {
    if (this.#held) this.#release();
  }

  /** Runs `run` now, or once (per function) when the hold ends. */
  whenOpen(run: () => void): void {
    if (this.#held) this.#waiting.add(run);
    else run();
  }

  /** Forgets `run` if it waits. */
  cancel(run: () => void): void {
    this.#waiting.delete(run);
  }

  /** `listener` runs when a hold starts; returns its removal. */
  onHold(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #arm(after: number): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    const wait = Math.max(0, this.#lastInput + after - this.#now());
    this.#timer = setTimeout(() => this.#pause(), wait);
  }

  /** Input has paused: the map draws now, or once its data is settled. */
  #pause(): void {
    this.#timer = null;
    this.#paused = true;
    const settleBy = this.#lastInput + REDRAW_MAX_SETTLE_MS;
    if (this.#busy.size > 0 && this.#now() < settleBy) this.#arm(REDRAW_MAX_SETTLE_MS);
    else this.#release();
  }

  #release(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    this.#held = false;
    this.#paused = false;
    const waiting = [...this.#waiting];
    this.#waiting.clear();
    for (const run of waiting) run();
  }
}

/** The app's one gate: CustomersState reports list input, every map yields to it. */
export const listInputGate = new RedrawGate();

const INTERACTIONS = ['pointerdown', 'wheel', 'touchstart', 'keydown'] as const;

/**
 * Makes `map`'s repaints wait for `gate` (a frame already requested is put off as well); the
 * map's own code schedules every repaint through triggerRepaint. Returns the undo.
 */
export function gateRedraws(map: MapLibreMap, gate: RedrawGate = listInputGate): () => void {
  const own = map.triggerRepaint.bind(map);
  const frames = map as unknown as { _frameRequest: AbortController | null };
  map.triggerRepaint = () => gate.whenOpen(own);
  // The rep moving the map itself sees it move at once.
  const container = map.getCanvasContainer();
  const release = () => gate.release();
  for (const type of INTERACTIONS) container.addEventListener(type, release, { passive: true });
  const stop = gate.onHold(() => {
    if (!frames._frameRequest) return;
    frames._frameRequest.abort();
    frames._frameRequest = null;
    gate.whenOpen(own);
  });
  return () => {
    stop();
    gate.cancel(own);
    for (const type of INTERACTIONS) container.removeEventListener(type, release);
    delete (map as { triggerRepaint?: unknown }).triggerRepaint;
  };
}
