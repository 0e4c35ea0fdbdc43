// A map made before its data (a first sync) links the GL programs of its overlays while it
// waits, one per frame, so the frame that first draws the pins, clusters and territories links
// none of them (under software GL each link is a synchronous wait of the UI thread).
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Territory } from '../../src-shared';
import { MAP_WARM_MARK, WARM_PREFIX, WARM_SOURCE } from '../../src-renderer/src/map/program-warmup';
import { makeCustomers, STAMP } from './map-fixtures/customers';
import { mapHarness } from './map-fixtures/session';

const map = mapHarness();

/** The map's linked GL programs (MapLibre's program cache, internal: read here only). */
const programs = (page: Page) =>
  page.evaluate(() => {
    type Painted = { map: { painter: { programCache: { programs: Record<string, unknown> } } } };
    const c = (document.querySelector('.fm-map') as Element & { fieldmapMap: Painted }).fieldmapMap;
    return Object.keys(c.map.painter.programCache.programs).sort();
  });

/** Whether the map still holds any warm-up copy or its source. */
const warmLeft = (page: Page) =>
  page.evaluate(
    ([prefix, source]) => {
      type M = {
        getStyle(): { layers: Array<{ id: string }> };
        getSource(id: string): unknown;
      };
      const m = (document.querySelector('.fm-map') as Element & { fieldmapMap: { map: M } })
        .fieldmapMap.map;
      return (
        m.getStyle().layers.some((l) => l.id.startsWith(prefix)) || m.getSource(source) != null
      );
    },
    [WARM_PREFIX, WARM_SOURCE] as const,
  );

describe('MapView made before its data', () => {
  it('links its overlays programs before the data comes; drawing the data then links none of theirs', async () => {
    // The minimal base style: every program linked after the data came would be an overlay's.
    const { page, h, errors } = await map.open({});
    await page.waitForFunction(
      (mark) => performance.getEntriesByName(mark).length > 0,
      MAP_WARM_MARK,
    );
    await h('idle');
    expect(await warmLeft(page)).toBe(false);
    const before = await programs(page);

    const territory: Territory = {
      id: 't1',
      name: 'North',
      points: ['40.0,-100.0', '40.0,-95.0', '45.0,-95.0', '45.0,-100.0'],
      createdAt: STAMP,
      updatedAt: STAMP,
    };
    // Clusters and single pins (a sparse corner of the box), and a territory's fill and outline.
    const customers = makeCustomers(3_000, 5, { box: [-100, 40, -95, 45] });
    await h('set', { customers, territories: [territory] });
    expect((await h('countRendered')).clusters).toBeGreaterThan(0);
    await h('jumpTo', [-97.5, 42.5], 12);
    expect((await h('countRendered')).pins).toBeGreaterThan(0);
    expect(before.length).toBeGreaterThan(0);
    expect((await programs(page)).filter((p) => !before.includes(p))).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });
});
