// Hands stops to the rep's navigation app: Google Maps, Apple Maps or Waze, as https links that
// main's external-link guard opens in the system browser (which hands them on to the app).
// Each provider's documented link format, and how many stops one link can carry:
// - Google Maps URLs (developers.google.com/maps/documentation/urls): /maps/dir/?api=1 with a
//   destination and up to 9 waypoints on a desktop browser (3 on a phone's); no origin means
//   "from where I am". A longer day is split into legs, each starting where the last one ended.
// - Apple Maps links (developer.apple.com, Map Links): saddr/daddr, one destination a link.
// - Waze deep links (waze.com/ul): ll=lat,lng&navigate=yes, one destination from where the rep is.
import type { LngLat } from './geo';

export type NavProvider = 'google' | 'apple' | 'waze';

export const NAV_PROVIDERS: Record<NavProvider, { label: string; stopsPerLink: number }> = {
  // A destination and 9 waypoints.
  google: { label: 'Google Maps', stopsPerLink: 10 },
  apple: { label: 'Apple Maps', stopsPerLink: 1 },
  waze: { label: 'Waze', stopsPerLink: 1 },
};

export const isNavProvider = (value: unknown): value is NavProvider =>
  typeof value === 'string' && Object.hasOwn(NAV_PROVIDERS, value);

/** A stop to drive to, [longitude, latitude] as the map holds positions. */
export interface NavStop {
  position: LngLat;
}

/** One link: the stops it drives to, `from` to `to` (indices into the stops given, inclusive). */
export interface NavLink {
  url: string;
  from: number;
  to: number;
}

/** "lat,lng", rounded to ~0.1 m: what every provider reads. */
const point = ([lng, lat]: LngLat): string => `${lat.toFixed(6)},${lng.toFixed(6)}`;

/** `base?k=v&…`, each value percent-encoded (src-shared has no URL class: it runs everywhere). */
const withQuery = (base: string, params: ReadonlyArray<[string, string | null]>): string =>
  `${base}?${params
    .flatMap(([key, value]) => (value === null ? [] : [`${key}=${encodeURIComponent(value)}`]))
    .join('&')}`;

function link(provider: NavProvider, origin: LngLat | null, legStops: readonly LngLat[]): string {
  const destination = point(legStops.at(-1)!);
  const from = origin && point(origin);
  switch (provider) {
    case 'google':
      return withQuery('https://www.google.com/maps/dir/', [
        ['api', '1'],
        ['origin', from],
        ['destination', destination],
        ['waypoints', legStops.length > 1 ? legStops.slice(0, -1).map(point).join('|') : null],
        ['travelmode', 'driving'],
      ]);
    case 'apple':
      return withQuery('https://maps.apple.com/', [
        ['saddr', from],
        ['daddr', destination],
        ['dirflg', 'd'],
      ]);
    case 'waze':
      return withQuery('https://waze.com/ul', [
        ['ll', destination],
        ['navigate', 'yes'],
      ]);
  }
}

/**
 * The links that drive through `stops` in order: one when the provider takes them all, else
 * legs, each from the previous leg's last stop (the first from where the rep is). Stops must
 * have positions (the caller says which had none).
 */
export function navigationLinks(provider: NavProvider, stops: readonly NavStop[]): NavLink[] {
  const per = NAV_PROVIDERS[provider].stopsPerLink;
  const links: NavLink[] = [];
  for (let from = 0; from < stops.length; from += per) {
    const to = Math.min(from + per, stops.length) - 1;
    // Waze always starts from where the rep is; the others from the last leg's end.
    const origin = from > 0 && provider !== 'waze' ? stops[from - 1]!.position : null;
    const leg = stops.slice(from, to + 1).map((s) => s.position);
    links.push({ url: link(provider, origin, leg), from, to });
  }
  return links;
}

/** The provider a rep on this platform most likely has: Apple Maps on a Mac, else Google Maps. */
export function defaultNavProvider(platform: string): NavProvider {
  return /mac/i.test(platform) ? 'apple' : 'google';
}
