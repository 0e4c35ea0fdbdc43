// Links to the rep's navigation app (src-shared/navigate.ts), read back as each provider's
// documented parameters: the stops in order, split where a provider caps them, each leg from
// where the last one ended.
import { describe, expect, it } from 'vitest';
import type { LngLat } from '../../src-shared/geo';
import {
  defaultNavProvider,
  isNavProvider,
  navigationLinks,
  type NavStop,
} from '../../src-shared/navigate';
import { checkExternalUrl } from '../../src-main/app/open-external';

const stops = (n: number): NavStop[] =>
  Array.from({ length: n }, (_, i) => ({ position: [-0.1 + i / 1000, 51.5 + i / 1000] as LngLat }));
const at = (i: number) => `${(51.5 + i / 1000).toFixed(6)},${(-0.1 + i / 1000).toFixed(6)}`;
const params = (url: string) => Object.fromEntries(new URL(url).searchParams);

describe('navigation links', () => {
  it('drives Google Maps through up to 10 stops in one link, from where the rep is', () => {
    const [only, ...more] = navigationLinks('google', stops(10));
    expect(more).toEqual([]);
    expect(only).toMatchObject({ from: 0, to: 9 });
    expect(new URL(only!.url).origin + new URL(only!.url).pathname).toBe(
      'https://www.google.com/maps/dir/',
    );
    expect(params(only!.url)).toEqual({
      api: '1',
      destination: at(9),
      waypoints: [0, 1, 2, 3, 4, 5, 6, 7, 8].map(at).join('|'),
      travelmode: 'driving',
    });
  });

  it('splits a longer day into legs of at most 9 waypoints, each from the last leg end', () => {
    const links = navigationLinks('google', stops(23));
    expect(links.map((l) => [l.from, l.to])).toEqual([
      [0, 9],
      [10, 19],
      [20, 22],
    ]);
    const second = params(links[1]!.url);
    expect(second.origin).toBe(at(9));
    expect(second.destination).toBe(at(19));
    expect(second.waypoints!.split('|')).toEqual([10, 11, 12, 13, 14, 15, 16, 17, 18].map(at));
    expect(params(links[2]!.url)).toMatchObject({ origin: at(19), destination: at(22) });
    expect(params(links[2]!.url).waypoints!.split('|')).toEqual([at(20), at(21)]);
    // Every stop is driven to exactly once, in order.
    const visited = links.flatMap((l) => {
      const p = params(l.url);
      return [...(p.waypoints ? p.waypoints.split('|') : []), p.destination!];
    });
    expect(visited).toEqual(stops(23).map((_, i) => at(i)));
  });

  it('gives Apple Maps and Waze one stop a link, Apple from the stop before', () => {
    const apple = navigationLinks('apple', stops(3));
    expect(apple.map((l) => params(l.url))).toEqual([
      { daddr: at(0), dirflg: 'd' },
      { saddr: at(0), daddr: at(1), dirflg: 'd' },
      { saddr: at(1), daddr: at(2), dirflg: 'd' },
    ]);
    expect(new URL(apple[0]!.url).host).toBe('maps.apple.com');
    const waze = navigationLinks('waze', stops(2));
    expect(waze.map((l) => l.url)).toEqual([
      `https://waze.com/ul?ll=${encodeURIComponent(at(0))}&navigate=yes`,
      `https://waze.com/ul?ll=${encodeURIComponent(at(1))}&navigate=yes`,
    ]);
  });

  it("passes main's external-link guard, and makes nothing of no stops", () => {
    for (const provider of ['google', 'apple', 'waze'] as const) {
      for (const l of navigationLinks(provider, stops(12)))
        expect(checkExternalUrl(l.url)).toEqual({ ok: true, url: l.url });
      expect(navigationLinks(provider, [])).toEqual([]);
    }
  });

  it('defaults to Apple Maps on a Mac and Google Maps elsewhere', () => {
    expect(defaultNavProvider('MacIntel')).toBe('apple');
    expect(defaultNavProvider('Win32')).toBe('google');
    expect(defaultNavProvider('Linux x86_64')).toBe('google');
    expect(isNavProvider('waze')).toBe(true);
    expect(isNavProvider('toString')).toBe(false);
  });
});
