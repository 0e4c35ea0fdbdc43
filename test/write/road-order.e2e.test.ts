// Main's one road to the cache worker (src-shared/data-road.ts) in the orders its two transports
// allow. Under Electron a message goes by the worker's own port once it listens, else through the
// page; the two keep no order between them, so a message can arrive before or after any other.
// Each round here makes a colour edit and a new customer, syncs, and holds every message main
// sends (outbox mirrors, the resolved id, the delta's pieces, the sync states) at the runner's
// road gate; then hands them on in one order: main's own, reversed, one message held back to the
// end, or one sent first, each through the socket or the page. After every message the list,
// the map and the status bar must agree: the list's colour of the edited customer is the map's,
// the edit never reverts once shown, and "Synced" shows only over the service's customers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchApp, startTestService, type AppHandle, type TestService } from '../support/app';
import { signIn, waitRows, waitSync } from '../support/app-steps';

const USER = 'rep';
const COLOURS = ['red', 'blue', 'green', 'purple', 'orange', 'yellow'];

let service: TestService;
let app: AppHandle;

beforeAll(async () => {
  service = await startTestService({ customers: 30, seed: 61 });
  app = await launchApp({ serviceUrl: service.url });
});

afterAll(async () => {
  await app?.close();
  await service?.stop();
});

type Look = {
  sync: string | null;
  /** The status bar says "Synced at …". */
  synced: boolean;
  rows: number;
  listColour: string | null;
  mapColours: string[];
};

/** The status bar, the list and the map's pins at the edited customer, read in one frame. */
function look(page: Page, id: string, at: [number, number]): Promise<Look> {
  return page.evaluate(
    async ([customerId, lngLat]) => {
      type Feature = { id?: number; layer: { id: string }; properties: Record<string, unknown> };
      type Controller = {
        map: {
          once(e: string, f: () => void): void;
          triggerRepaint(): void;
          project(p: [number, number]): { x: number; y: number };
          getLayer(id: string): unknown;
          queryRenderedFeatures(b: unknown, o: { layers: string[] }): Feature[];
          getFeatureState(f: { source: string; id: number }): Record<string, unknown>;
        };
      };
      const c = (document.querySelector('.fm-map') as Element & { fieldmapMap: Controller })
        .fieldmapMap;
      await new Promise<void>((resolve) => {
        c.map.once('render', resolve);
        c.map.triggerRepaint();
      });
      const p = c.map.project(lngLat);
      const layers = ['fm-customers-pins', 'fm-customers-recent-pins'].filter((l) =>
        c.map.getLayer(l),
      );
      const box = [
        [p.x - 4, p.y - 4],
        [p.x + 4, p.y + 4],
      ];
      // The pins shown for it: a clustered pin that a changed one replaced is hidden.
      const mapColours = c.map
        .queryRenderedFeatures(box, { layers })
        .filter((f) => f.properties['id'] === customerId)
        .filter(
          (f) =>
            f.layer.id !== 'fm-customers-pins' ||
            c.map.getFeatureState({ source: 'fm-customers', id: f.id! })['replaced'] !== true,
        )
        .map((f) => String(f.properties['color']));
      const list = document.querySelector('[aria-label="Customers"]');
      const row = list?.querySelector(`[data-id="${customerId}"] .dot`);
      return {
        sync: document.querySelector('.sync-status')?.getAttribute('data-sync') ?? null,
        synced:
          document.querySelector('.sync-status')?.getAttribute('data-tone') === 'ok' &&
          (document.querySelector('.sync-status .text')?.textContent ?? '').startsWith('Synced'),
        rows: Number(list?.getAttribute('data-rows') ?? -1),
        listColour: row?.getAttribute('title') ?? null,
        mapColours,
      };
    },
    [id, at] as const,
  );
}

/**
 * The orders a round hands its messages on in ([index, transport], in arrival order): main's own
 * through the page, alternating transports, all reversed, the first outbox mirror held back to
 * the end, and the last message (main's "synced") first. Every merge of two transports is
 * played against the cache worker alone in test/renderer/cache-stream.e2e.test.ts; here each
 * step costs a frame of the whole app.
 */
function ordersFor(n: number): Array<Array<[number, 'socket' | 'page']>> {
  const all = [...Array(n).keys()];
  const last = n - 1;
  return [
    all.map((i) => [i, 'page']),
    all.map((i) => [i, i % 2 ? 'socket' : 'page']),
    [...all].reverse().map((i) => [i, 'socket']),
    [...all.slice(1), 0].map((i) => [i, i === 0 ? 'page' : 'socket']),
    [last, ...all.slice(0, last)].map((i) => [i, i === last ? 'socket' : 'page']),
  ];
}

describe("main's road in every order its transports allow", () => {
  it('keeps the list, the map and the status bar in agreement after every message', async () => {
    const { page } = app;
    await signIn(app, service);
    await waitRows(page, 'Customers', 30);
    await waitSync(page, 'synced');
    await expect.poll(() => app.dataChannelOpen()).toBe(true);
    const target = service.store
      .customers(USER)
      .find((c) => c.latitude !== null && c.longitude !== null)!;
    const at: [number, number] = [Number(target.longitude), Number(target.latitude)];
    await page.evaluate((lngLat) => {
      type Controller = { map: { jumpTo(o: { center: [number, number]; zoom: number }): void } };
      (
        document.querySelector('.fm-map') as Element & { fieldmapMap: Controller }
      ).fieldmapMap.map.jumpTo({ center: lngLat, zoom: 17 });
    }, at);

    let rounds = 0;
    let orders: ReturnType<typeof ordersFor> | null = null;
    let steps = 0;
    for (let round = 0; orders === null || round < orders.length; round++) {
      const { listColour: before, rows: countBefore } = await look(page, target.id, at);
      const colour = COLOURS.filter((c) => c !== before)[round % (COLOURS.length - 1)]!;
      const base = service.store.customers(USER).find((c) => c.id === target.id)!;
      const gate = app.gateRoad();
      // The edit's push waits at the service until the create is queued too: one sync takes
      // both, so the round's one "Synced" is over both.
      const push = service.hold('PUT', /\/customers\//);
      await app.call('enqueue', {
        kind: 'updateCustomer',
        target: target.id,
        payload: { color: colour },
        base,
      });
      // A new customer, as the rep makes one (its create brings main's resolved id).
      await page.keyboard.press('Escape');
      await page.click('button:has-text("New customer")');
      await page.waitForSelector('aside[data-editing="new"]');
      await page.fill('#ed-name', `Round ${round}`);
      // Beside the edited one, in view: the map keeps a new customer's pin in view by its
      // details, and the edited pin must stay on the map to be read.
      await page.fill('#ed-latitude', String(at[1] + 0.0004));
      await page.fill('#ed-longitude', String(at[0] + 0.0004));
      await page.click('button:has-text("Create customer")');
      await page.waitForSelector('aside[data-editing]', { state: 'detached' });
      await push.arrived;
      push.release();
      // Main is done with both: sent, pulled back, and its queue empty.
      await expect
        .poll(async () => {
          const state = await app.call<{ kind: string }>('syncNow');
          const queued = await app.call<unknown[]>('listOps');
          const onService = service.store.customers(USER);
          return (
            state.kind === 'synced' &&
            queued.length === 0 &&
            onService.some((c) => c.name === `Round ${round}`) &&
            onService.find((c) => c.id === target.id)?.color === colour
          );
        })
        .toBe(true);
      gate.end();
      const held = gate.held();
      const count = service.store.customers(USER).length;
      const plan = ordersFor(held);
      orders ??= plan;
      const order = plan[round % plan.length]!;
      let shownNew = false;
      for (const [index, via] of order) {
        await gate.release(index, via);
        steps++;
        // Settled after this message: the list and the map show one colour for the customer.
        let now: Look | null = null;
        await expect
          .poll(async () => {
            const seen = await look(page, target.id, at);
            now = seen;
            return (
              seen.mapColours.length > 0 && seen.mapColours.every((c) => c === seen.listColour)
            );
          })
          .toBe(true);
        // The rep's value, once shown, stays; "Synced" only over the service's list.
        const settled = now as unknown as Look;
        if (settled.listColour === colour) shownNew = true;
        else
          expect({ round, shownNew, colour: settled.listColour }).toEqual({
            round,
            shownNew: false,
            colour: before,
          });
        // "Synced" is the last sync's word the worker applied: over the list before this round
        // (nothing of it applied yet) or over all of it, never over part.
        if (settled.synced)
          expect([settled.rows, settled.listColour]).toEqual(
            settled.rows === count ? [count, colour] : [countBefore, before],
          );
      }
      await waitSync(page, 'synced');
      const last = await look(page, target.id, at);
      expect(last).toMatchObject({ rows: count, listColour: colour });
      rounds++;
    }
    expect(rounds).toBe(orders!.length);
    expect(steps).toBeGreaterThan(rounds * 4);
  });
});
