// The bundled basemap in real Chromium with every outside request blocked: the rendered pixels
// show land and water where they are, borders and labels, under a pin, at world, country and
// city zoom, in both themes.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PALETTES } from '../../src-renderer/src/map/style/palette';
import {
  call,
  distance,
  hex,
  luminance,
  openBasemapPage,
  type BasemapPage,
  type Rgb,
  type Served,
} from './support';

let session: BasemapPage;
let page: Page;
let served: Served;

beforeAll(async () => {
  session = await openBasemapPage(() => null);
  ({ page, served } = session);
});

afterAll(async () => {
  await session?.close();
});

const light = PALETTES.light;
const near = (actual: Rgb, expected: string, tolerance = 6) =>
  distance(actual, hex(expected)) <= tolerance;

describe('bundled basemap, offline', () => {
  it('world zoom: land, water and the pin on top', async () => {
    const errors = await call<string[]>(page, 'show', { center: [0, 20], zoom: 1, pin: [20, 5] });
    expect(errors).toEqual([]);
    // Central Africa is land (under the pin's edge, sampled beside it), the mid-Atlantic is water.
    expect(await call<Rgb>(page, 'colorAt', 25, 12)).toSatisfy((c: Rgb) => near(c, light.land));
    expect(await call<Rgb>(page, 'colorAt', -30, 0)).toSatisfy((c: Rgb) => near(c, light.water));
    expect(await call<Rgb>(page, 'colorAt', -60, 40)).toSatisfy((c: Rgb) => near(c, light.water));
    // The pin is drawn above the base layer.
    expect(await call<Rgb>(page, 'colorAt', 20, 5)).toSatisfy((c: Rgb) => near(c, '#e6194b', 10));
    // Country labels are drawn with the bundled glyphs.
    const names = await call<string[]>(page, 'renderedPlaceNames');
    expect(names.length).toBeGreaterThan(5);
  });

  it('country zoom: the US–Canada border and state borders are drawn', async () => {
    // MapLibre tiles are 512 px: at zoom 5 the 512 px view spans about 11° of longitude.
    await call(page, 'show', { center: [-122, 46], zoom: 5 });
    expect(await call<Rgb>(page, 'colorAt', -119.5, 44.5)).toSatisfy((c: Rgb) =>
      near(c, light.land),
    );
    expect(await call<Rgb>(page, 'colorAt', -126, 46)).toSatisfy((c: Rgb) => near(c, light.water));
    const landLuminance = luminance(hex(light.land));
    // Crossing the 49th parallel at 118°W: some pixel is border-dark, well below the land's.
    const border = await call<Rgb[]>(page, 'column', -118, 48.6, 49.4);
    expect(Math.min(...border.map(luminance))).toBeLessThan(landLuminance - 40);
    // Crossing the Washington–Oregon line (46°N) at 118°W: a state border.
    const state = await call<Rgb[]>(page, 'column', -118, 45.7, 46.3);
    expect(Math.min(...state.map(luminance))).toBeLessThan(landLuminance - 15);
    // A column with no border in it stays plain land (the checks above are not noise).
    const plain = await call<Rgb[]>(page, 'column', -118, 44.2, 44.8);
    expect(Math.min(...plain.map(luminance))).toBeGreaterThan(landLuminance - 5);
    expect(await call<string[]>(page, 'renderedPlaceNames')).toEqual(
      expect.arrayContaining(['Oregon', 'Washington', 'Seattle', 'Portland']),
    );
  });

  it('city zoom: land, ocean and the city label in Los Angeles', async () => {
    await call(page, 'show', { center: [-118.35, 33.98], zoom: 10 });
    expect(await call<Rgb>(page, 'colorAt', -118.3, 34.08)).toSatisfy((c: Rgb) =>
      near(c, light.land),
    );
    expect(await call<Rgb>(page, 'colorAt', -118.45, 33.87)).toSatisfy((c: Rgb) =>
      near(c, light.water),
    );
    expect(await call<string[]>(page, 'renderedPlaceNames')).toContain('Los Angeles');
    // The label's text is drawn with the bundled glyphs: dark pixels around the city's point.
    const around = await call<Rgb[]>(page, 'colorsAround', -118.2437, 34.0522, 14);
    expect(around.filter((c) => luminance(c) < 120).length).toBeGreaterThan(10);
  });

  it('dark theme draws the dark palette', async () => {
    await call(page, 'show', { center: [0, 20], zoom: 1, theme: 'dark' });
    expect(await call<Rgb>(page, 'colorAt', 25, 12)).toSatisfy((c: Rgb) =>
      near(c, PALETTES.dark.land),
    );
    expect(await call<Rgb>(page, 'colorAt', -30, 0)).toSatisfy((c: Rgb) =>
      near(c, PALETTES.dark.water),
    );
  });

  it('credits the data sources and sent nothing outside the app origin', async () => {
    await call(page, 'show', { center: [0, 20], zoom: 1 });
    expect(await call<string>(page, 'attribution')).toMatch(/Natural Earth.*US Census/);
    expect(served.blocked).toEqual([]);
  });
});
