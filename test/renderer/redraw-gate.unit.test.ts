// The map's redraws yield to list input (map/redraw-gate.ts): after a filter or sort change
// MapLibre's repaints wait until input pauses and the map's source holds the filtered set, then
// the map draws once; a frame it had already requested is put off too; the rep moving the map
// ends the hold; a source that never settles holds it REDRAW_MAX_SETTLE_MS at most.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Map as MapLibreMap } from 'maplibre-gl';
import {
  REDRAW_MAX_SETTLE_MS,
  REDRAW_PAUSE_MS,
  RedrawGate,
  gateRedraws,
} from '../../src-renderer/src/map/redraw-gate';

/** The part of MapLibre's Map the gate touches: triggerRepaint and the pending frame. */
class FakeMap {
  repaints = 0;
  _frameRequest: AbortController | null = null;
  container = new EventTarget();
  getCanvasContainer(): EventTarget {
    return this.container;
  }
  triggerRepaint(): void {
    this.repaints++;
  }
}

function gated() {
  const gate = new RedrawGate(() => Date.now());
  const map = new FakeMap();
  const undo = gateRedraws(map as unknown as MapLibreMap, gate);
  return { gate, map, undo };
}

describe('RedrawGate', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('repaints at once while no list input is held', () => {
    const { map } = gated();
    map.triggerRepaint();
    expect(map.repaints).toBe(1);
  });

  it('holds repaints after list input until it pauses, then repaints once', () => {
    const { gate, map } = gated();
    gate.input();
    map.triggerRepaint();
    map.triggerRepaint();
    vi.advanceTimersByTime(REDRAW_PAUSE_MS - 1);
    expect(map.repaints).toBe(0);
    gate.input();
    vi.advanceTimersByTime(REDRAW_PAUSE_MS - 1);
    expect(map.repaints).toBe(0);
    vi.advanceTimersByTime(1);
    expect(map.repaints).toBe(1);
    expect(gate.held).toBe(false);
  });

  it('puts off a frame the map had already requested', () => {
    const { gate, map } = gated();
    const frame = new AbortController();
    map._frameRequest = frame;
    gate.input();
    expect(frame.signal.aborted).toBe(true);
    expect(map._frameRequest).toBeNull();
    vi.advanceTimersByTime(REDRAW_PAUSE_MS);
    expect(map.repaints).toBe(1);
  });

  it('holds until the source holds the filtered set, when that comes after the pause', () => {
    const { gate, map } = gated();
    const filter = {};
    gate.input();
    gate.busy(filter, true);
    map.triggerRepaint();
    vi.advanceTimersByTime(REDRAW_PAUSE_MS * 2);
    expect(map.repaints).toBe(0);
    gate.busy(filter, false);
    expect(map.repaints).toBe(1);
  });

  it('a source that settled before the pause does not end the hold early', () => {
    const { gate, map } = gated();
    const filter = {};
    gate.input();
    gate.busy(filter, true);
    gate.busy(filter, false);
    map.triggerRepaint();
    vi.advanceTimersByTime(REDRAW_PAUSE_MS - 1);
    expect(map.repaints).toBe(0);
    vi.advanceTimersByTime(1);
    expect(map.repaints).toBe(1);
  });

  it('a source that never settles holds the map REDRAW_MAX_SETTLE_MS after the last input', () => {
    const { gate, map } = gated();
    gate.input();
    gate.busy({}, true);
    map.triggerRepaint();
    vi.advanceTimersByTime(REDRAW_MAX_SETTLE_MS - 1);
    expect(map.repaints).toBe(0);
    vi.advanceTimersByTime(1);
    expect(map.repaints).toBe(1);
  });

  it('the rep moving the map ends the hold at once', () => {
    const { gate, map } = gated();
    gate.input();
    gate.busy({}, true);
    map.triggerRepaint();
    map.container.dispatchEvent(new Event('pointerdown'));
    expect(map.repaints).toBe(1);
    expect(gate.held).toBe(false);
  });

  it('undo gives the map its own repaints back and drops a held one', () => {
    const { gate, map, undo } = gated();
    gate.input();
    map.triggerRepaint();
    undo();
    vi.advanceTimersByTime(REDRAW_PAUSE_MS);
    expect(map.repaints).toBe(0);
    gate.input();
    map.triggerRepaint();
    expect(map.repaints).toBe(1);
  });
});
