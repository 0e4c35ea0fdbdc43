// The Content-Security-Policy of every app:// response.

export interface CspOptions {
  /**
   * Extra origins the renderer may fetch from, e.g. the tile host of an online map style once
   * one is configured. Empty by default: the app only talks to main over IPC.
   */
  connectSources?: readonly string[];
}

export function buildContentSecurityPolicy(options: CspOptions = {}): string {
  // blob: the map's worker reads the pins the page wrote into a blob: URL (src-renderer/src/map/
  // layers/pin-blob.ts). Only this origin's own script can create one, from data it already
  // holds, so it reaches nothing outside the app.
  const connect = ["'self'", 'app:', 'blob:', ...(options.connectSources ?? [])];
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    // Only the app's own bundled scripts: no 'unsafe-eval', no 'unsafe-inline', no remote hosts.
    'script-src': ["'self'"],
    // MapLibre positions its markers, popups and controls through inline style attributes,
    // and Svelte sets style: directives inline; styles cannot run code, scripts stay locked.
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:'],
    // MapLibre runs its tile parsing in a worker it creates from a blob: URL.
    'worker-src': ["'self'", 'blob:'],
    'connect-src': connect,
    'font-src': ["'self'"],
    'object-src': ["'none'"],
    // No frames of any kind: nothing (a proxied tile response included) renders inside the app.
    'frame-src': ["'none'"],
    'child-src': ["'none'"],
    'base-uri': ["'none'"],
    'frame-ancestors': ["'none'"],
    'form-action': ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, sources]) => `${name} ${sources.join(' ')}`)
    .join('; ');
}
