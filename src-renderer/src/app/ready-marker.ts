// The runner's screenshot waits for `data-ready` on <html>: set once the first data is drawn.
import type { Map as MapLibreMap } from 'maplibre-gl';
import { tick } from 'svelte';
import type { SyncState } from '../../../src-shared';
import type { AccountData } from './account-data.svelte';

/** Sync states after which no first snapshot is coming soon. */
const NO_DATA_COMING: ReadonlyArray<SyncState['kind']> = [
  'offline',
  'off-network',
  'auth-required',
  'error',
  'synced',
];
/** A map that never settles (a hanging tile) must not hold the marker back for ever. */
const MAP_IDLE_LIMIT_MS = 15_000;

/**
 * True when the page has what it will first show: no account, or an account's cache read with
 * data in it (or main reporting that none is coming soon).
 */
export function firstDataKnown(
  started: boolean,
  data: AccountData | null,
  sync: SyncState,
): boolean {
  return (
    started &&
    (data === null ||
      (data.loaded && (data.lastSync !== null || NO_DATA_COMING.includes(sync.kind))))
  );
}

function mapIdle(map: MapLibreMap): Promise<void> {
  return new Promise((done) => {
    const limit = setTimeout(done, MAP_IDLE_LIMIT_MS);
    map.once('idle', () => {
      clearTimeout(limit);
      done();
    });
    map.triggerRepaint();
  });
}

/** Sets the marker once the DOM is updated and the map (when there is one) has drawn. */
export function markReady(map: MapLibreMap | null): void {
  void tick()
    .then(() => (map ? mapIdle(map) : undefined))
    .then(() =>
      requestAnimationFrame(() => document.documentElement.setAttribute('data-ready', '')),
    );
}
