// Drawing a selection on the map in the field-day bulk suites: the seeded area, its pixels on
// the page, and a box drawn with the mouse in the Selection panel's box mode.
import type { Page } from 'playwright-core';

/** The area the bulk suites seed their customers in: 0.1° × 0.05°. */
export const AREA = { west: -95.05, south: 39.0, east: -94.95, north: 39.05 };

/** The map's pixel of a position, on the page. */
export async function pixelOf(
  page: Page,
  lng: number,
  lat: number,
): Promise<{ x: number; y: number }> {
  const box = (await page.locator('.fm-map-canvas').boundingBox())!;
  const p = await page.evaluate(
    ([x, y]) => {
      type Map = { project(p: [number, number]): { x: number; y: number } };
      return (
        document.querySelector('.fm-map') as Element & { fieldmapMap: { map: Map } }
      ).fieldmapMap.map.project([x, y]);
    },
    [lng, lat] as const,
  );
  return { x: box.x + p.x, y: box.y + p.y };
}

export type Box = { west: number; south: number; east: number; north: number };

/** Fits the map to `view` (no animation) and waits until it has drawn. */
export async function showArea(page: Page, view: Box): Promise<void> {
  await page.evaluate(async (v) => {
    type Map = {
      fitBounds(b: [[number, number], [number, number]], o: object): void;
      once(e: string, f: () => void): void;
      triggerRepaint(): void;
    };
    const { map } = (document.querySelector('.fm-map') as Element & { fieldmapMap: { map: Map } })
      .fieldmapMap;
    const idle = new Promise<void>((resolve) => map.once('idle', resolve));
    map.fitBounds(
      [
        [v.west, v.south],
        [v.east, v.north],
      ],
      { padding: 100, animate: false },
    );
    map.triggerRepaint();
    await idle;
  }, view);
}

/** Opens the Selection panel in box mode, shows `view` and draws `box` with the mouse, corner to corner. */
export async function drawBox(page: Page, box: Box, view: Box = AREA): Promise<void> {
  if (!(await page.isVisible('aside.selection')))
    await page.click('button:has-text("Select on map")');
  const boxButton = 'aside.selection button:has-text("Box")';
  if ((await page.getAttribute(boxButton, 'aria-pressed')) !== 'true') await page.click(boxButton);
  // With the panel open (the map is narrower), the area fills the map.
  await showArea(page, view);
  const from = await pixelOf(page, box.west, box.north);
  const to = await pixelOf(page, box.east, box.south);
  await page.mouse.move(from.x, from.y);
  await page.mouse.click(from.x, from.y);
  await page.mouse.move(to.x, to.y, { steps: 6 });
  await page.mouse.click(to.x, to.y);
}

export const selectedCount = (page: Page) =>
  page.getAttribute('aside.selection [aria-label="Selected customers"]', 'data-rows');
