// Electron's data port (src-main/shell/data-channel.ts): the names both ends agree on. Its own
// module, free of imports, so the sandboxed preload bundles nothing else with it.

/** The IPC channel main hands the data port on (to the preload, then the page's window). */
export const DATA_PORT_CHANNEL = 'fieldmap:data-port';
/** The cache worker's one message back on the data port: it listens, so main may use the port. */
export const DATA_PORT_READY = 'fieldmap:data-port-ready';
/**
 * The cache worker's report on the data port that it took road message `seq` of road `road` off
 * the port: main sends a snapshot's next pieces only while few it sent are still on their way
 * (data-road.ts Road.room), so a page that reads slower than main parses does not make main queue
 * the whole account.
 */
export const DATA_PORT_TOOK = 'fieldmap:data-port-took:';

export function tookReport(road: number, seq: number): string {
  return `${DATA_PORT_TOOK}${road}:${seq}`;
}

/** The road and seq of a took report, or null when `data` is none. */
export function readTook(data: unknown): { road: number; seq: number } | null {
  if (typeof data !== 'string' || !data.startsWith(DATA_PORT_TOOK)) return null;
  const match = /^(\d{1,15}):(\d{1,15})$/.exec(data.slice(DATA_PORT_TOOK.length));
  return match ? { road: Number(match[1]), seq: Number(match[2]) } : null;
}
