// Names the runner's data socket (data-socket.ts) and the page side (page-entry.ts) agree on,
// free of Node imports so the page's bundle can take them.

/** Where the runner serves the relay worker's script on the app's origin. */
export const RELAY_PATH = '/__fieldmap-runner/data-relay.js';

/** The binding page-entry.ts calls once its page has loaded: answers the socket's address. */
export const DATA_SOCKET_BINDING = '__fieldmapDataSocket';
