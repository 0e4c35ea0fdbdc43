// Electron's data port (src-main/shell/data-channel.ts): the names both ends agree on. Its own
// module, free of imports, so the sandboxed preload bundles nothing else with it.

/** The IPC channel main hands the data port on (to the preload, then the page's window). */
export const DATA_PORT_CHANNEL = 'fieldmap:data-port';
/** The cache worker's one message back on the data port: it listens, so main may use the port. */
export const DATA_PORT_READY = 'fieldmap:data-port-ready';
