// Few changed customers patch the map instead of reloading the clustered source of every pin:
// changed, moved and new pins are drawn by the small 'recent' source on top, the clustered
// source's own pin is hidden (feature-state), a deleted pin disappears and cannot be clicked,
// selection follows the drawn pin, and a large change still reloads the whole source.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { CUSTOMER_LAYER, RECENT_SOURCE } from '../../src-renderer/src/map/layers/customer-layer';
import {
  MAP_SOURCE_PATCH_MARK,
  MAP_SOURCE_RELOAD_MARK,
} from '../../src-renderer/src/map/drawn-mark';
import type { CustomerView } from '../../src-renderer/src/types';
import { customer, makeCustomers } from './map-fixtures/customers';
import { mapHarness } from './map-fixtures/session';

const map = mapHarness();

/** Every customer the map reported as selected (or null: nothing). */
const selects = (page: Page) =>
  page.evaluate(
    () =>
      (globalThis as unknown as { harness: { calls: { select: (string | null)[] } } }).harness.calls
        .select,
  );

const marks = (page: Page, name: string) =>
  page.evaluate((n) => performance.getEntriesByName(n).length, name);

const PINS = [CUSTOMER_LAYER.pins, CUSTOMER_LAYER.recentPins];

describe('MapView patches a few changed pins', () => {
  it('draws an edit, a move, a create and a delete without reloading the clustered source', async () => {
    // 500 customers far away (so a patch of 4 is under 1 in 50), and four near 10,45.
    const bulk = makeCustomers(500, 21, { box: [-5, 40, 0, 44] });
    const near = (id: string, longitude: number, color = 'blue') =>
      customer({ id, latitude: 45, longitude, color });
    const before: CustomerView[] = [
      ...bulk,
      near('edit', 10),
      near('gone', 10.002),
      near('mover', 10.004),
    ];
    const { page, h } = await map.open({ customers: before, echo: true });
    await h('jumpTo', [10.004, 45], 16);
    const reloads = await marks(page, MAP_SOURCE_RELOAD_MARK);
    const patches = await marks(page, MAP_SOURCE_PATCH_MARK);

    const after = [
      ...bulk,
      { ...near('edit', 10), color: 'red', name: 'Edited', pending: true },
      near('mover', 10.006),
      near('born', 10.008, 'green'),
    ];
    await h('set', { customers: after });

    expect(await marks(page, MAP_SOURCE_RELOAD_MARK)).toBe(reloads);
    expect(await marks(page, MAP_SOURCE_PATCH_MARK)).toBe(patches + 1);
    const recent = async (lng: number) =>
      (await h('renderedAt', lng, 45, [CUSTOMER_LAYER.recentPins], 4)).map((f) => f.props);
    expect(await recent(10)).toEqual([
      { id: 'edit', name: 'Edited', color: 'red', pending: true, age: 'never', due: 'none' },
    ]);
    expect(await recent(10.002)).toEqual([]);
    expect(await recent(10.006)).toEqual([
      {
        id: 'mover',
        name: 'Customer mover',
        color: 'blue',
        pending: false,
        age: 'never',
        due: 'none',
      },
    ]);
    expect(await recent(10.008)).toEqual([
      {
        id: 'born',
        name: 'Customer born',
        color: 'green',
        pending: false,
        age: 'never',
        due: 'none',
      },
    ]);
    // The clustered source's pins of edit, gone and mover are hidden, not removed from it.
    for (const id of ['edit', 'gone', 'mover'])
      expect(await h('featureState', id)).toMatchObject({ replaced: true });
    expect(await h('featureState', 'born')).toEqual({}); // past the clustered source's ids
    // Clicking where the deleted pin was selects nothing; clicking the new pin selects it.
    const [gx, gy] = await h('project', 10.002, 45);
    await page.mouse.click(gx, gy);
    const [bx, by] = await h('project', 10.008, 45);
    await page.mouse.click(bx, by);
    await expect.poll(() => selects(page)).toEqual(['born']);

    // Selection follows the drawn pin: the mover's new pin carries it.
    await h('set', { selectedId: 'mover' });
    const moverState = await page.evaluate((source) => {
      const el = document.querySelector('.fm-map') as Element & {
        fieldmapMap: {
          customers: { featureIdOf(id: string): number | undefined };
          map: { getFeatureState(f: { source: string; id: number }): Record<string, unknown> };
        };
      };
      const c = el.fieldmapMap;
      const fid = c.customers.featureIdOf('mover')!;
      return c.map.getFeatureState({ source, id: fid });
    }, RECENT_SOURCE);
    expect(moverState).toMatchObject({ selected: true });

    // Pins drawn in view: edit, mover and born once each; gone not at all.
    const drawn = await h('renderedAt', 10.004, 45, PINS, 400);
    const shown = drawn.filter(
      (f) =>
        f.layer === CUSTOMER_LAYER.recentPins ||
        !['edit', 'gone', 'mover'].includes(String(f.props['id'])),
    );
    expect(shown.map((f) => f.props['id']).sort()).toEqual(['born', 'edit', 'mover']);

    // A change of more than 1 in 50 pins reloads the clustered source and empties the patch.
    const moved = bulk.map((c) => ({ ...c, color: 'yellow' }));
    await h('set', { customers: [...moved, near('edit', 10, 'red')] });
    expect(await marks(page, MAP_SOURCE_RELOAD_MARK)).toBe(reloads + 1);
    expect(await recent(10)).toEqual([]);
    expect(await h('featureState', 'edit')).not.toMatchObject({ replaced: true });
    expect(
      (await h('renderedAt', 10, 45, [CUSTOMER_LAYER.pins], 4)).map((f) => f.props['color']),
    ).toEqual(['red']);
    await page.close();
  });
});
