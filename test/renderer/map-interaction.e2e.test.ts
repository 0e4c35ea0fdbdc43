// Map interaction in real Chromium: hover/selection feature-state, clicks, the text-only
// popup, cluster zoom, focus requests, fit to data, and data updates without a new map.
import { describe, expect, it } from 'vitest';
import type { Territory } from '../../src-shared';
import { customer, makeCustomers, STAMP } from './map-fixtures/customers';
import { mapHarness } from './map-fixtures/session';

const XSS = '<img src=x onerror=alert(1)>';

const map = mapHarness();

describe('MapView interaction in Chromium', () => {
  it('shows hover and selection through feature-state, both ways', async () => {
    const customers = [
      customer({ id: 'one', latitude: 45, longitude: 0 }),
      customer({ id: 'two', latitude: 45, longitude: 0.5 }),
    ];
    const { page, h } = await map.open({ customers, echo: true });
    await h('jumpTo', [0.25, 45], 9);
    await h('set', { selectedId: 'one' });
    expect(await h('featureState', 'one')).toMatchObject({ selected: true });
    await h('set', { selectedId: 'two' });
    expect(await h('featureState', 'one')).toMatchObject({ selected: false });
    expect(await h('featureState', 'two')).toMatchObject({ selected: true });
    // Moving the mouse over a pin reports it; the echoed hoveredId sets its hover state.
    const [x, y] = await h('project', 0, 45);
    await page.mouse.move(x, y);
    await page.waitForFunction(() => {
      const h = (globalThis as unknown as { harness: { calls: { hover: unknown[] } } }).harness;
      return h.calls.hover.includes('one');
    });
    await h('idle');
    expect(await h('featureState', 'one')).toMatchObject({ hover: true });
    await page.mouse.move(x + 200, y + 200);
    await page.waitForFunction(() => {
      const h = (globalThis as unknown as { harness: { calls: { hover: unknown[] } } }).harness;
      return h.calls.hover.at(-1) === null;
    });
    await h('idle');
    expect(await h('featureState', 'one')).toMatchObject({ hover: false });
    await page.close();
  });

  it('selects on click and opens a popup made of text, never markup', async () => {
    const customers = [
      customer({ id: 'plain', name: 'Plain Co', latitude: 45, longitude: 0 }),
      customer({
        id: 'xss',
        name: XSS,
        company: '<script>alert(2)</script>',
        latitude: 45,
        longitude: 0.5,
      }),
    ];
    const { page, h, dialogs, errors } = await map.open({
      customers,
      echo: true,
    });
    await h('jumpTo', [0.25, 45], 9);
    const [x, y] = await h('project', 0.5, 45);
    await page.mouse.click(x, y);
    await page.waitForSelector('.fm-popup');
    await h('idle');
    expect(
      await page.evaluate(
        () =>
          (globalThis as unknown as { harness: { calls: { select: unknown[] } } }).harness.calls
            .select,
      ),
    ).toEqual(['xss']);
    const popup = await h('popup');
    expect(popup?.text).toContain(XSS);
    expect(popup?.text).toContain('<script>alert(2)</script>');
    expect(popup?.imgs).toBe(0);
    expect(await page.locator('img').count()).toBe(0);
    expect(await h('featureState', 'xss')).toMatchObject({ selected: true });
    // Selecting the other one from outside (the list) moves the popup there.
    await h('set', { selectedId: 'plain' });
    expect((await h('popup'))?.text).toContain('Plain Co');
    // A click on empty map deselects; the popup goes away.
    await page.mouse.click(x, y + 150);
    await page.locator('.fm-popup').waitFor({ state: 'detached' });
    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('changes the open popup in place when new data comes, leaving the focus where it was', async () => {
    const plain = customer({ id: 'plain', name: 'Plain Co', latitude: 45, longitude: 0 });
    const other = customer({ id: 'other', name: 'Other Co', latitude: 45, longitude: 0.5 });
    const { page, h } = await map.open({ customers: [plain, other] });
    await h('jumpTo', [0.25, 45], 9);
    await h('set', { selectedId: 'plain' });
    await page.waitForSelector('.fm-popup');
    // The rep types in a field beside the map; the popup element is marked to tell it apart
    // from a popup opened anew.
    await page.evaluate(() => {
      const input = document.createElement('input');
      input.id = 'typing';
      document.body.append(input);
      input.focus();
      document.querySelector<HTMLElement>('.maplibregl-popup')!.dataset['mark'] = 'first';
    });
    const state = () =>
      page.evaluate(() => ({
        focus: document.activeElement?.id,
        popups: [...document.querySelectorAll<HTMLElement>('.maplibregl-popup')].map(
          (p) => p.dataset['mark'] ?? 'new',
        ),
      }));
    // A pull brings new records (another customer changed), then an edit of this one.
    await h('set', { customers: [plain, { ...other, name: 'Other Ltd' }] });
    expect(await state()).toEqual({ focus: 'typing', popups: ['first'] });
    await h('set', { customers: [{ ...plain, name: 'Plain Ltd' }, other] });
    expect((await h('popup'))?.text).toContain('Plain Ltd');
    expect(await state()).toEqual({ focus: 'typing', popups: ['first'] });
    // Moved: the popup follows its pin (by as far as the pin moved on screen).
    const popupAt = () =>
      page.evaluate(() => {
        const el = document.querySelector<HTMLElement>('.maplibregl-popup')!;
        const anchor = [...el.classList].find((c) => c.startsWith('maplibregl-popup-anchor'));
        return { x: el.getBoundingClientRect().x, anchor };
      });
    const before = await popupAt();
    const moved = customer({ id: 'plain', name: 'Plain Ltd', latitude: 45, longitude: 0.25 });
    await h('set', { customers: [moved, other] });
    const after = await popupAt();
    const [x0] = await h('project', 0, 45);
    const [x1] = await h('project', 0.25, 45);
    expect(after.anchor).toBe(before.anchor);
    expect(Math.abs(after.x - before.x - (x1 - x0))).toBeLessThan(2);
    expect(await state()).toEqual({ focus: 'typing', popups: ['first'] });
    await page.close();
  });

  it('zooms into a cluster on click', async () => {
    const customers = makeCustomers(300, 3, { box: [5, 45, 6, 46] });
    const { page, h } = await map.open({ customers });
    await h('jumpTo', [5.5, 45.5], 6);
    const clusters = await h('clusterPixels');
    expect(clusters.length).toBeGreaterThan(0);
    const biggest = clusters.sort((a, b) => b.count - a.count)[0]!;
    const before = (await h('view')).zoom;
    await page.mouse.click(biggest.x, biggest.y);
    await page.waitForFunction((z) => {
      const h = (globalThis as unknown as { harness: { view(): { zoom: number } } }).harness;
      return h.view().zoom > z + 0.5;
    }, before);
    await h('idle');
    expect((await h('view')).zoom).toBeGreaterThan(before);
    await page.close();
  });

  it('follows focus requests: a customer is centred and selected, a territory or route is fitted', async () => {
    const territory: Territory = {
      id: 'terr',
      name: 'T',
      points: ['40.0,-4.0', '40.0,-3.0', '41.0,-3.0', '41.0,-4.0'],
      createdAt: STAMP,
      updatedAt: STAMP,
    };
    const route = { ...territory, id: 'route', points: ['51.0,10.0', '52.0,11.0'] };
    const customers = [
      customer({ id: 'near', latitude: 45, longitude: 0 }),
      customer({ id: 'far', latitude: 60, longitude: 25 }),
    ];
    const { page, h } = await map.open({
      customers,
      territories: [territory],
      routes: [route],
    });
    await h('set', { focus: { kind: 'customer', id: 'far', nonce: 1 } });
    const v1 = await h('view');
    expect(v1.center[0]).toBeCloseTo(25, 3);
    expect(v1.center[1]).toBeCloseTo(60, 3);
    expect(v1.zoom).toBeGreaterThanOrEqual(15);
    expect(
      await page.evaluate(
        () =>
          (globalThis as unknown as { harness: { calls: { select: unknown[] } } }).harness.calls
            .select,
      ),
    ).toEqual(['far']);
    await h('set', { focus: { kind: 'territory', id: 'terr', nonce: 2 } });
    const v2 = await h('view');
    expect(v2.bounds[0]).toBeLessThanOrEqual(-4);
    expect(v2.bounds[1]).toBeLessThanOrEqual(40);
    expect(v2.bounds[2]).toBeGreaterThanOrEqual(-3);
    expect(v2.bounds[3]).toBeGreaterThanOrEqual(41);
    expect(v2.bounds[2] - v2.bounds[0]).toBeLessThan(5);
    await h('set', { focus: { kind: 'route', id: 'route', nonce: 3 } });
    const v3 = await h('view');
    expect(v3.center[0]).toBeCloseTo(10.5, 1);
    expect(v3.center[1]).toBeGreaterThan(51);
    expect(v3.center[1]).toBeLessThan(52);
    await page.close();
  });

  it('updates data in place with setData, and fits to data on request', async () => {
    const a = customer({ id: 'a', latitude: 45, longitude: 0 });
    const b = customer({ id: 'b', latitude: 45, longitude: 1 });
    const { page, h } = await map.open({ customers: [a, b], selectedId: 'b' });
    await h('jumpTo', [1, 45], 8);
    expect((await h('renderedAt', 1, 45, ['fm-customers-pins'])).map((f) => f.props['id'])).toEqual(
      ['b'],
    );
    // b moves; a becomes unmapped (it must disappear, not drop to 0,0).
    const moved = customer({ id: 'b', latitude: 45.5, longitude: 1.5 });
    const unmapped = customer({ id: 'a', latitude: null, longitude: null });
    await h('set', { customers: [unmapped, moved] });
    expect(await h('renderedAt', 1, 45, ['fm-customers-pins'], 10)).toEqual([]);
    expect(
      (await h('renderedAt', 1.5, 45.5, ['fm-customers-pins'])).map((f) => f.props['id']),
    ).toEqual(['b']);
    expect(await h('renderedAt', 0, 45, ['fm-customers-pins'], 10)).toEqual([]);
    expect(await h('featureState', 'b')).toMatchObject({ selected: true });
    expect(await h('mapCount')).toBe(1);
    // Fit to data brings every mapped customer back into view.
    await h('set', { customers: [customer({ id: 'c', latitude: 30, longitude: -20 }), moved] });
    await h('jumpTo', [100, 0], 3);
    await page.getByRole('button', { name: 'Fit to data' }).click();
    await h('idle');
    const v = (await h('view')).bounds;
    expect(v[0]).toBeLessThanOrEqual(-20);
    expect(v[2]).toBeGreaterThanOrEqual(1.5);
    expect(v[1]).toBeLessThanOrEqual(30);
    expect(v[3]).toBeGreaterThanOrEqual(45.5);
    expect((await h('countRendered')).pins).toBe(2);
    await page.close();
  });

  it('fits itself to the first customers when it was created before the data arrived', async () => {
    const { page, h } = await map.open({});
    const customers = makeCustomers(50, 9, { box: [10, 50, 12, 52] });
    await h('set', { customers });
    const v = (await h('view')).bounds;
    expect(v[0]).toBeLessThanOrEqual(10.1);
    expect(v[2]).toBeGreaterThanOrEqual(11.9);
    expect(v[2] - v[0]).toBeLessThan(10);
    const counts = await h('countRendered');
    expect(counts.pins + counts.clusteredPoints).toBe(50);
    await page.close();
  });

  it('adds territories and routes that arrive later, under the pins and as toggled', async () => {
    const territory: Territory = {
      id: 'late',
      name: 'Late',
      points: ['44.5,-0.5', '44.5,0.5', '45.5,0.5', '45.5,-0.5'],
      createdAt: STAMP,
      updatedAt: STAMP,
    };
    const route = { ...territory, id: 'r', points: ['45,-1', '45,1'] };
    const customers = [customer({ id: 'a', latitude: 45, longitude: 0 })];
    const { page, h } = await map.open({ customers });
    expect(await h('layerIds')).not.toContain('fm-territories-fill');
    await page.getByLabel('Routes').uncheck();
    await h('set', { territories: [territory], routes: [route] });
    await h('jumpTo', [0, 45], 7);
    const ids = await h('layerIds');
    const order = [
      'fm-territories-fill',
      'fm-routes-lines',
      'fm-customers-clusters',
      'fm-customers-pins',
    ];
    expect(order.map((id) => ids.indexOf(id))).toEqual(
      [...order.map((id) => ids.indexOf(id))].sort((x, y) => x - y),
    );
    expect(order.filter((id) => !ids.includes(id))).toEqual([]);
    expect((await h('renderedAt', 0.3, 44.8, ['fm-territories-fill'])).length).toBe(1);
    expect(await h('visibility', 'fm-routes-lines')).toBe('none');
    expect(await h('renderedAt', -0.7, 45, ['fm-routes-lines'])).toEqual([]);
    await page.getByLabel('Routes').check();
    await h('idle');
    expect((await h('renderedAt', -0.7, 45, ['fm-routes-lines'])).length).toBe(1);
    // The pin is still on top and clickable over the territory fill.
    expect((await h('renderedAt', 0, 45, ['fm-customers-pins'])).map((f) => f.props['id'])).toEqual(
      ['a'],
    );
    await page.close();
  });
});
