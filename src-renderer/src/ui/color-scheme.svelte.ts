// The system's light or dark appearance, followed while the app runs (Windows' and macOS'
// automatic dark mode switch at sunset). The app's colours follow by CSS alone (app.css); the
// map's drawn colours follow through this value.
export type ColorSchemeName = 'light' | 'dark';

export class ColorScheme {
  #scheme = $state<ColorSchemeName>('light');

  constructor(media: Pick<Window, 'matchMedia'> = window) {
    const query = media.matchMedia('(prefers-color-scheme: dark)');
    this.#scheme = query.matches ? 'dark' : 'light';
    query.addEventListener('change', (event) => {
      this.#scheme = event.matches ? 'dark' : 'light';
    });
  }

  get scheme(): ColorSchemeName {
    return this.#scheme;
  }
}
