// Map labels on the app's offline basemap (its bundled glyphs): cluster counts, route stop
// numbers, territory and customer names, drawn as text even when the text looks like markup.
import { describe, expect, it } from 'vitest';
import type { Route, Territory } from '../../src-shared';
import { CUSTOMER_LAYER } from '../../src-renderer/src/map/layers/customer-layer';
import { ROUTE_LAYER } from '../../src-renderer/src/map/layers/route-layer';
import { TERRITORY_LAYER } from '../../src-renderer/src/map/layers/territory-layer';
import { customer, makeCustomers, STAMP } from './map-fixtures/customers';
import { mapHarness } from './map-fixtures/session';

const XSS = '<img src=x onerror=alert(1)>';

const map = mapHarness();

describe('map labels on the offline basemap', () => {
  it('draws cluster counts, stop numbers, and territory and customer names as text', async () => {
    const territory: Territory = {
      id: 't',
      name: `<b>${XSS}</b>`,
      points: ['40.0,-4.0', '40.0,-3.0', '41.0,-3.0', '41.0,-4.0'],
      createdAt: STAMP,
      updatedAt: STAMP,
    };
    const route: Route = {
      id: 'r',
      name: 'Tour',
      points: ['40.2,-3.8', '40.2,-3.2', '40.8,-3.2'],
      createdAt: STAMP,
      updatedAt: STAMP,
    };
    const customers = [
      ...makeCustomers(300, 4, { box: [2.0, 48.5, 2.6, 49.0] }),
      customer({ id: 'xss', name: XSS, latitude: 45, longitude: 10 }),
    ];
    const { page, h, dialogs, errors } = await map.open({
      customers,
      territories: [territory],
      routes: [route],
      base: 'bundled',
    });
    const ids = await h('layerIds');
    for (const id of [
      CUSTOMER_LAYER.clusterCounts,
      CUSTOMER_LAYER.names,
      ROUTE_LAYER.stopNumbers,
      TERRITORY_LAYER.names,
    ]) {
      expect(ids).toContain(id);
    }
    // Cluster counts over Paris.
    await h('jumpTo', [2.3, 48.75], 7);
    const counts = await h('renderedAt', 2.3, 48.75, [CUSTOMER_LAYER.clusterCounts], 300);
    expect(counts.length).toBeGreaterThan(0);
    expect(counts.every((f) => Number(f.props['point_count']) >= 2)).toBe(true);
    // Stop numbers and the territory's name (at its label point, the square's centre).
    await h('jumpTo', [-3.5, 40.5], 8);
    const stop2 = await h('renderedAt', -3.2, 40.2, [ROUTE_LAYER.stopNumbers], 6);
    expect(stop2.map((f) => f.props['stop'])).toEqual([2]);
    const name = await h('renderedAt', -3.5, 40.5, [TERRITORY_LAYER.names], 30);
    expect(name.map((f) => f.props['name'])).toEqual([`<b>${XSS}</b>`]);
    // A customer's name at street level, drawn with glyphs: no element is ever made of it.
    await h('jumpTo', [10, 45], 16);
    const label = await h('renderedAt', 10, 45, [CUSTOMER_LAYER.names], 40);
    expect(label.map((f) => f.props['name'])).toEqual([XSS]);
    expect(await page.locator('img').count()).toBe(0);
    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });
});
