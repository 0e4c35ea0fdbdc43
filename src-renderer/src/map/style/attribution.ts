// Credits for every data source the map can show. MapLibre's attribution control collects the
// `attribution` of each visible source; the bundled layer carries its credits on the land source.
import { text } from '../text';

export const BUNDLED_ATTRIBUTION = text.attribution.bundled;

/** Protomaps basemap tiles are built from OpenStreetMap data (ODbL). */
export const REGION_ATTRIBUTION = text.attribution.regions;
