// The map's redraws yield to the list while the rep works its filters and sorts. Measured at
// 100k in the scale bench (Chromium, software GL: every frame is drawn on the CPU): a list
// input's next frame took 100-430 ms whenever a map redraw fell between the input and that
// frame (the GPU process's SwapBuffers of a map frame is 150-400 ms there, and the page gets
// no new frame until it is done), and 15-35 ms when none did; the list's own work was 5-40 ms.
// So after a list input (a filter, a sort) MapLibre's repaints wait until the input has paused
// for REDRAW_PAUSE_MS (or, while the rep keeps clicking, at most REDRAW_MAX_HOLD_MS), then the
// map draws once: it follows the list's filter as a typed search already does (200 ms pause).
// Only the drawing waits: the filtered set reaches the map's source as before (pin-filter.ts).
import type { Map as MapLibreMap } from 'maplibre-gl';

/** How long list input must pause before the map draws again (ms). */
export const REDRAW_PAUSE_MS = 200;
/** Longest the map's drawing waits while list input goes on (ms). */
export const REDRAW_MAX_HOLD_MS = 1_000;

export class RedrawGate {
  #heldSince: number | null = null;
  #lastInput = 0;
  #timer: ReturnType<typeof setTimeout> | null = null;
  #waiting = new Set<() => void>();
  #listeners = new Set<() => void>();
  #now: () => number;

  constructor(now: () => number = () => performance.now()) {
    this.#now = now;
  }

  /** True while the map's drawing waits for list input to pause. */
  get held(): boolean {
    return this.#heldSince !== null;
  }

  /** A list input (filter, sort): holds the map's drawing until input pauses. */
  input(): void {
    const now = this.#now();
    this.#lastInput = now;
    if (this.#heldSince === null) {
      this.#heldSince = now;
      for (const listener of this.#listeners) listener();
    }
    this.#arm();
  }

  /** Runs `run` now, or once (per function) when the hold ends. */
  whenOpen(run: () => void): void {
    if (this.#heldSince === null) run();
    else this.#waiting.add(run);
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

  #arm(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    const now = this.#now();
    const until = Math.min(
      this.#lastInput + REDRAW_PAUSE_MS,
      this.#heldSince! + REDRAW_MAX_HOLD_MS,
    );
    this.#timer = setTimeout(() => this.#release(), Math.max(0, until - now));
  }

  #release(): void {
    this.#timer = null;
    this.#heldSince = null;
    const waiting = [...this.#waiting];
    this.#waiting.clear();
    for (const run of waiting) run();
  }
}

/** The app's one gate: CustomersState reports list input, every map yields to it. */
export const listInputGate = new RedrawGate();

/**
 * Makes `map`'s repaints wait for `gate` (a frame already requested is put off as well); the
 * map's own code schedules every repaint through triggerRepaint. Returns the undo.
 */
export function gateRedraws(map: MapLibreMap, gate: RedrawGate = listInputGate): () => void {
  const own = map.triggerRepaint.bind(map);
  const frames = map as unknown as { _frameRequest: AbortController | null };
  map.triggerRepaint = () => gate.whenOpen(own);
  const stop = gate.onHold(() => {
    if (!frames._frameRequest) return;
    frames._frameRequest.abort();
    frames._frameRequest = null;
    gate.whenOpen(own);
  });
  return () => {
    stop();
    gate.cancel(own);
    delete (map as { triggerRepaint?: unknown }).triggerRepaint;
  };
}
