// Debian's Chromium, as every tool and test here starts it (through playwright-core, so no
// browser download): software WebGL2 for MapLibre and nothing that phones home.
export const CHROMIUM_PATH = '/usr/bin/chromium';

export const CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
];
