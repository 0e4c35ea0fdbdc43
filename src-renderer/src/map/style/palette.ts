// Colours of the bundled basemap. Muted on purpose: the customers' coloured pins must stand out.
export type BasemapTheme = 'light' | 'dark';

export interface BasemapPalette {
  water: string;
  land: string;
  coastline: string;
  countryBorder: string;
  stateBorder: string;
  countryLabel: string;
  placeLabel: string;
  labelHalo: string;
}

export const PALETTES: Record<BasemapTheme, BasemapPalette> = {
  light: {
    water: '#cddde6',
    land: '#f3f1ec',
    coastline: '#a9bcc7',
    countryBorder: '#8f8f8f',
    stateBorder: '#b3b3b3',
    countryLabel: '#5a5a5a',
    placeLabel: '#444444',
    labelHalo: '#ffffff',
  },
  dark: {
    water: '#172027',
    land: '#2a2e33',
    coastline: '#3d4b55',
    countryBorder: '#6b737b',
    stateBorder: '#4f565d',
    countryLabel: '#aab2ba',
    placeLabel: '#c9d0d6',
    labelHalo: '#16191c',
  },
};

/** The glyph fontstacks bundled under public/glyphs (scripts/build-basemap-assets.ts). */
export const FONT_REGULAR = 'DejaVu Sans Book';
export const FONT_BOLD = 'DejaVu Sans Bold';
