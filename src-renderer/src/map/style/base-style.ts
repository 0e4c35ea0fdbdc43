// Base style used until the offline basemap (./basemap, built separately) is wired in:
// a plain background, no glyphs, so label layers are left out.
import type { StyleSpecification } from 'maplibre-gl';

/** A minimal offline base style: background only. */
export function minimalBaseStyle(theme: 'light' | 'dark' = 'light'): StyleSpecification {
  return {
    version: 8,
    sources: {},
    layers: [
      {
        id: 'background',
        type: 'background',
        paint: { 'background-color': theme === 'dark' ? '#1d2126' : '#eef0f2' },
      },
    ],
  };
}
