// Where the rep left the window: its size and position (and whether it was maximised) are kept
// in window-place.json in the app's data folder and given back on the next start. The file is
// ours but still read as untrusted (small, every field checked), and a place that no display
// shows any more (a laptop off its docking station, a monitor unplugged) is not used: the window
// then opens at its default size on the primary display, as Windows and macOS apps do.
import { join } from 'node:path';
import * as v from 'valibot';
import type { DurableFs } from '../core/durable-fs';
import type { WatchTimers } from './renderer-watch';

export const WINDOW_PLACE_FILE = 'window-place.json';
/** The window's smallest size (also createMainWindow's minWidth/minHeight). */
export const MIN_WINDOW = { width: 720, height: 480 } as const;
/** How much of the window's top edge a display must show for the place to be used. */
const VISIBLE_TOP = { width: 120, height: 40 } as const;
/** Far above any window-place.json we write; a bigger file is not ours. */
const MAX_FILE_BYTES = 4096;
/** Moves and resizes come in bursts while the rep drags: one write when they stop. */
const SAVE_AFTER_MS = 500;

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface WindowPlace extends Rect {
  maximized: boolean;
}

/** Electron's screen module, the part used (available once the app is ready). */
export interface ShellScreen {
  getAllDisplays(): Array<{ workArea: Rect }>;
}

/** The window, the parts a place is read from. */
export interface PlacedWindow {
  getNormalBounds(): Rect;
  isMaximized(): boolean;
  isDestroyed(): boolean;
  on(event: 'resize' | 'move' | 'maximize' | 'unmaximize' | 'close', listener: () => void): unknown;
}

const coordinate = v.pipe(v.number(), v.integer(), v.minValue(-100_000), v.maxValue(100_000));
const length = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100_000));
const PlaceSchema = v.strictObject({
  x: coordinate,
  y: coordinate,
  width: length,
  height: length,
  maximized: v.boolean(),
});

function overlap(a: Rect, b: Rect): Rect {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  return {
    x,
    y,
    width: Math.min(a.x + a.width, b.x + b.width) - x,
    height: Math.min(a.y + a.height, b.y + b.height) - y,
  };
}

/**
 * The saved place if a display still shows its title bar (enough to grab and move it), sized to
 * fit that display; null when there is none, it is damaged, or no display shows it.
 */
export function placeOnDisplays(saved: unknown, screen: ShellScreen): WindowPlace | null {
  const parsed = v.safeParse(PlaceSchema, saved);
  if (!parsed.success) return null;
  const place = parsed.output;
  const top: Rect = { x: place.x, y: place.y, width: place.width, height: VISIBLE_TOP.height };
  const display = screen.getAllDisplays().find(({ workArea }) => {
    const seen = overlap(top, workArea);
    return seen.width >= VISIBLE_TOP.width && seen.height >= VISIBLE_TOP.height;
  });
  if (!display) return null;
  const area = display.workArea;
  const width = Math.max(MIN_WINDOW.width, Math.min(place.width, area.width));
  const height = Math.max(MIN_WINDOW.height, Math.min(place.height, area.height));
  return { ...place, width, height };
}

/** The place kept in `dataDir`, checked against today's displays; null for the default. */
export async function readWindowPlace(
  fs: DurableFs,
  dataDir: string,
  screen: ShellScreen,
): Promise<WindowPlace | null> {
  const bytes = await fs.readIfExists(join(dataDir, WINDOW_PLACE_FILE)).catch(() => null);
  if (bytes === null || bytes.length > MAX_FILE_BYTES) return null;
  try {
    return placeOnDisplays(JSON.parse(bytes.toString('utf8')), screen);
  } catch {
    return null;
  }
}

/**
 * Keeps the window's place: written when a burst of moves or resizes ends and when the window
 * closes. A write that fails is logged and costs only the place.
 */
export function keepWindowPlace(
  window: PlacedWindow,
  options: {
    fs: DurableFs;
    dataDir: string;
    timers: WatchTimers;
    log: (message: string) => void;
    /** Told each place written (a window opened again in this run opens there). */
    kept?: (place: WindowPlace) => void;
  },
): void {
  const file = join(options.dataDir, WINDOW_PLACE_FILE);
  let pending: unknown = null;
  const save = () => {
    if (pending !== null) options.timers.clearTimeout(pending);
    pending = null;
    if (window.isDestroyed()) return;
    const place: WindowPlace = { ...window.getNormalBounds(), maximized: window.isMaximized() };
    options.kept?.(place);
    options.fs.writeJson(file, place).catch((error: unknown) => {
      options.log(
        `[shell] could not keep the window's place: ${error instanceof Error ? error.message : String(error)}`,
      );
    });
  };
  const later = () => {
    if (pending !== null) options.timers.clearTimeout(pending);
    pending = options.timers.setTimeout(save, SAVE_AFTER_MS);
  };
  for (const event of ['resize', 'move', 'maximize', 'unmaximize'] as const)
    window.on(event, later);
  window.on('close', save);
}
