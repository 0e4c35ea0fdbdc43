// Nearby's page and worker sides (src-renderer/src/features/nearby/nearby-worker.ts) over a real
// MessageChannel: a search equals the index's own answer, the centre item is left out, a new data
// version (a new array) is sent before its search, and answers keep to their own request.
import { MessageChannel } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import type { LngLat } from '../../src-shared/geo';
import { NearbyIndex } from '../../src-shared/nearby';
import { seededRandom } from '../../src-shared/route-optimizer';
import {
  NearbyClient,
  serveNearby,
  type NearbyPort,
} from '../../src-renderer/src/features/nearby/nearby-worker';

type Item = { id: number; position: LngLat | null };

const channels: MessageChannel[] = [];
afterEach(() => {
  for (const c of channels.splice(0)) {
    c.port1.close();
    c.port2.close();
  }
});

function pair(): NearbyClient<Item> {
  const channel = new MessageChannel();
  channels.push(channel);
  serveNearby(channel.port2 as unknown as NearbyPort);
  return new NearbyClient<Item>(channel.port1 as unknown as NearbyPort);
}

function items(n: number, seed: number): Item[] {
  const random = seededRandom(seed);
  return Array.from({ length: n }, (_, id) => ({
    id,
    position: id % 7 === 0 ? null : [-0.5 + random(), 51 + random()],
  }));
}

describe('nearby worker protocol', () => {
  it('answers as the index does, without the centre item, for each data version in turn', async () => {
    const client = pair();
    const first = items(3_000, 1);
    const centre = first[1]!;
    const tree = new NearbyIndex(first.map((i) => i.position));
    const want = tree.search(centre.position!, 10_000, { limit: 20, exclude: 1 });
    const [a, b] = await Promise.all([
      client.search(first, centre.position!, 10_000, { limit: 20, exclude: centre }),
      client.search(first, centre.position!, 30_000, { limit: 5 }),
    ]);
    expect(a.total).toBe(want.total);
    expect(a.hits.map((h) => h.item.id)).toEqual(want.hits.map((h) => h.index));
    expect(a.hits.map((h) => h.meters)).toEqual(want.hits.map((h) => h.meters));
    expect(a.hits.some((h) => h.item === centre)).toBe(false);
    expect(b.hits).toHaveLength(5);
    expect(b.hits[0]!.item).toBe(centre);

    // A new array (an edit moved customer 2 next to the centre): the worker gets it first.
    const second = first.map((i) => (i.id === 2 ? { ...i, position: centre.position } : i));
    const after = await client.search(second, centre.position!, 10_000, {
      limit: 1,
      exclude: second[1],
    });
    expect(after.hits.map((h) => [h.item.id, h.meters])).toEqual([[2, 0]]);
    expect(after.hits[0]!.item).toBe(second[2]);
  });
});
