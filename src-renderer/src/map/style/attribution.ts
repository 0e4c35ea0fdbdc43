// Credits for every data source the map can show. MapLibre's attribution control collects the
// `attribution` of each visible source; the bundled layer carries its credits on the land source.
export const BUNDLED_ATTRIBUTION =
  'Natural Earth (public domain) · US Census Bureau via us-atlas · Fonts: DejaVu';

/** Protomaps basemap tiles are built from OpenStreetMap data (ODbL). */
export const REGION_ATTRIBUTION = '© OpenStreetMap contributors (ODbL) · Protomaps';
