// The areas worker's page and worker sides (src-renderer/src/features/offline-maps/area-worker.ts)
// over a real MessageChannel: the plan equals area-plan.ts's own, customers without a position
// are left out, a list already sent is not sent again, and an answer to a request a newer one
// replaced never reaches the panel.
import { MessageChannel } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import type { LngLat } from '../../src-shared/geo';
import { planAreas } from '../../src-renderer/src/features/offline-maps/area-plan';
import {
  AreaPlanner,
  serveAreas,
  type AreaPort,
  type AreaRequest,
  type Located,
} from '../../src-renderer/src/features/offline-maps/area-worker';

const channels: MessageChannel[] = [];
afterEach(() => {
  for (const c of channels.splice(0)) {
    c.port1.close();
    c.port2.close();
  }
});

/** A planner and a worker side, with every request the worker side received. */
function pair(): { planner: AreaPlanner; requests: AreaRequest[] } {
  const channel = new MessageChannel();
  channels.push(channel);
  const requests: AreaRequest[] = [];
  const worker = channel.port2 as unknown as AreaPort;
  serveAreas(worker);
  const serve = worker.onmessage!;
  worker.onmessage = (event) => {
    requests.push(event.data as AreaRequest);
    return serve(event);
  };
  return { planner: new AreaPlanner(channel.port1 as unknown as AreaPort), requests };
}

const towns: Array<[string, LngLat]> = [
  ['Wichita', [-97.33, 37.69]],
  ['Denver', [-104.99, 39.74]],
  ['Omaha', [-95.93, 41.26]],
];
const customers: Located[] = Array.from({ length: 300 }, (_, i) => {
  const [city, [lng, lat]] = towns[i % 3]!;
  return { position: i % 11 === 0 ? null : [lng + (i % 7) * 0.01, lat + (i % 5) * 0.01], city };
});
const placed = customers.flatMap((c) => (c.position ? [{ at: c.position, city: c.city }] : []));
const territory = { name: 'Plains', points: [[-100, 38] as LngLat, [-99, 39] as LngLat] };

describe('areas worker protocol', () => {
  it('plans as area-plan.ts does, and sends the customers once per list', async () => {
    const { planner, requests } = pair();
    expect(await planner.plan(customers, [])).toEqual(planAreas(placed, []));
    expect(await planner.plan(customers, [territory])).toEqual(planAreas(placed, [territory]));
    expect(requests.map((r) => r.customers?.cities.length ?? null)).toEqual([placed.length, null]);
    // A new list (an edit) goes again.
    const fewer = customers.slice(100);
    const fewerPlaced = placed.filter((p) => fewer.some((c) => c.position === p.at));
    expect(await planner.plan(fewer, [])).toEqual(planAreas(fewerPlaced, []));
    expect(requests.at(-1)!.customers?.cities.length).toBe(fewerPlaced.length);
  });

  it('drops the answer to a request a newer one replaced', async () => {
    const { planner } = pair();
    const older = planner.plan(customers, []);
    const newer = planner.plan(customers.slice(0, 30), []);
    expect(await older).toBeNull();
    expect(await newer).toEqual(planAreas(placed.slice(0, 27), []));
  });

  it('refuses every plan once the worker failed', async () => {
    const { planner } = pair();
    const waiting = planner.plan(customers, []);
    planner.fail(new Error('the areas worker did not start'));
    await expect(waiting).rejects.toThrow('did not start');
    await expect(planner.plan(customers, [])).rejects.toThrow('did not start');
  });
});
