// The same offline session synced against every reading of the spec's gaps.
import { describe, it } from 'vitest';
import { normaliseFields } from '../../src-main/core/sync/merge';
import type { Variants } from '../../src-service/index';
import { Harness, newFields, tempId, USER, type HarnessOptions } from '../support/main';

const readings: Array<[string, Partial<Variants>, Partial<HarnessOptions>]> = [
  ['create message with id', { createMessage: 'with-id' }, {}],
  ['create message without id', { createMessage: 'without-id' }, {}],
  ['PUT as patch', { put: 'patch' }, {}],
  ['PUT as replace', { put: 'replace' }, {}],
  ['without id and PUT as replace', { createMessage: 'without-id', put: 'replace' }, {}],
  // The service at 8/s and the client allowed more, so the service really pushes back.
  ['429 with Retry-After', { rateLimited: 'retry-after' }, { rate: 8, clientRate: 40 }],
  ['429 without Retry-After', { rateLimited: 'no-retry-after' }, { rate: 8, clientRate: 40 }],
  ['503 when rate limited', { rateLimited: '503' }, { rate: 8, clientRate: 40 }],
  ['timezone_type 1', { timezoneType: 1 }, {}],
  ['timezone_type 2', { timezoneType: 2 }, {}],
  ['timezone_type 3', { timezoneType: 3 }, {}],
  ['unmapped as null', { unmapped: 'null' }, {}],
  ['unmapped as 0/0', { unmapped: 'zero' }, {}],
  ['dealAmount as number', { dealAmount: 'number' }, {}],
  ['dealAmount as string', { dealAmount: 'string' }, {}],
  // PHP's DateTime JSON: microseconds, in each timezone_type.
  [
    'PHP timestamps at +02:00',
    { timestampFraction: 'micro', timezoneType: 1, timezone: '+02:00' },
    {},
  ],
  ['PHP timestamps in EST', { timestampFraction: 'micro', timezoneType: 2, timezone: 'EST' }, {}],
  [
    'PHP timestamps in Europe/Oslo',
    { timestampFraction: 'micro', timezoneType: 3, timezone: 'Europe/Oslo' },
    {},
  ],
  [
    'values given back as written',
    { writtenForm: 'kept', dealAmount: 'string', unmapped: 'zero' },
    {},
  ],
  // PHP's habits (src-service/php-habits.ts; docs/service-readings.md).
  [
    '429 with Retry-After as an HTTP date',
    { rateLimited: 'retry-after-date' },
    { rate: 8, clientRate: 40 },
  ],
  [
    'PHP labels and bytes: text/html, a BOM, pretty-printed escapes, chunked',
    { contentType: 'php-default', bodyPrefix: 'bom', jsonStyle: 'php-pretty', transfer: 'chunked' },
    {},
  ],
  ['ISO-8859-1 bytes labelled so', { charset: 'latin1' }, {}],
  [
    "PHP's shapes: arrays as objects with holes, numbers as strings, empty text as null",
    { arrays: 'php-objects', numbers: 'strings', emptyText: 'null' },
    {},
  ],
  [
    'numeric ids, "Customer created with id N"',
    { ids: 'numeric', createMessage: 'short-with-id' },
    {},
  ],
  [
    'numeric ids given beside the message, as strings',
    { ids: 'numeric', createMessage: 'id-field', numbers: 'strings' },
    {},
  ],
  ['writes answered 204 without a body', { writeStatus: 'no-content' }, {}],
];

// Each reading has its own service, outbox and engine: the readings run side by side (the
// rate-limited ones spend their time waiting on the service's limit).
describe('sync against each reading of the spec', () => {
  it.concurrent.for(readings)(
    '%s: pushes an offline session and ends with exactly the expected server state',
    async ([, variants, options], { expect, onTestFinished }) => {
      const h = await Harness.start({ ...options, variants });
      onTestFinished(() => h.dispose());
      const first = await h.engine.syncNow();
      expect(first.kind).toBe('synced');
      expect(h.of('data:snapshot')).toHaveLength(1);

      const before = h.serverCustomers();
      const mapped = before.filter((c) => c.latitude !== null && c.latitude !== 0);
      const [a, b] = [mapped[0]!, mapped[1]!];
      const untouched = before.filter((c) => c.id !== a.id && c.id !== b.id);

      // Offline: the service is unreachable from here (not allow-listed), everything queues.
      h.service.configure({ allow: ['10.0.0.0/8'] });
      const n1 = newFields('New Pin', {
        city: 'Lyon',
        latitude: 45.76,
        longitude: 4.83,
        dealAmount: 12.5,
        groups: ['vip'],
      });
      const twin = newFields('Twin Contact', { company: 'Same Co', remindAt: null });
      await h.outbox.enqueue({
        kind: 'createCustomer',
        target: tempId(1),
        payload: n1,
        base: null,
      });
      await h.outbox.enqueue({
        kind: 'createCustomer',
        target: tempId(2),
        payload: twin,
        base: null,
      });
      await h.outbox.enqueue({
        kind: 'createCustomer',
        target: tempId(3),
        payload: twin,
        base: null,
      });
      await h.outbox.enqueue({
        kind: 'updateCustomer',
        target: a.id,
        payload: { city: 'Annecy', notes: 'visited' },
        base: h.base(a.id),
      });
      await h.outbox.enqueue({
        kind: 'deleteCustomer',
        target: b.id,
        payload: null,
        base: h.base(b.id),
      });
      await h.outbox.enqueue({
        kind: 'createRoute',
        target: tempId(4),
        payload: { routeName: 'Tuesday tour', customerIds: [tempId(1), a.id] },
        base: null,
      });
      await h.outbox.enqueue({
        kind: 'updateCustomFields',
        target: 'user',
        payload: { visitGoal: 7 },
        base: null,
      });
      const routesBefore = h.service.store.routes(USER).length;
      const gone: string[] = [];
      h.outbox.onChange((_, acknowledged) => gone.push(...(acknowledged?.deleted ?? [])));

      const offNetwork = await h.engine.syncNow();
      expect(offNetwork.kind).toBe('off-network');
      expect(h.outbox.list()).toHaveLength(7);

      h.service.configure({ allow: ['127.0.0.1/32', '::1/128'] });
      // Pushed back by the rate limit, an op waits for the next sync: drain like the timer would.
      const synced = await h.drain();
      expect(synced.kind).toBe('synced');
      expect(h.outbox.list()).toEqual([]);

      const after = h.serverCustomers();
      const ids = h.resolvedIds();
      const id1 = ids.get(tempId(1))!;
      const id2 = ids.get(tempId(2))!;
      const id3 = ids.get(tempId(3))!;
      expect(new Set([id1, id2, id3]).size).toBe(3);
      // Exactly one record per create, nothing else new.
      expect(after).toHaveLength(before.length + 3 - 1);
      expect(after.filter((c) => c.name === 'New Pin')).toHaveLength(1);
      expect(
        after
          .filter((c) => c.name === 'Twin Contact')
          .map((c) => c.id)
          .sort(),
      ).toEqual([id2, id3].sort());
      expect(normaliseFields(h.base(id1))).toEqual(normaliseFields({ ...n1 }));
      expect(normaliseFields(h.base(id2))).toEqual(normaliseFields(twin));
      // The update kept every field the rep did not touch (under patch and replace alike).
      expect(normaliseFields(h.base(a.id))).toEqual(
        normaliseFields({ ...a, city: 'Annecy', notes: 'visited' }),
      );
      expect(h.service.store.customer(USER, b.id)).toBeUndefined();
      for (const c of untouched) expect(normaliseFields(h.base(c.id))).toEqual(normaliseFields(c));
      // The route goes through the new customer then A, by their server positions.
      const routes = h.service.store.routes(USER);
      expect(routes).toHaveLength(routesBefore + 1);
      const route = routes.find((r) => r.name === 'Tuesday tour')!;
      const pos = (id: string) => {
        const c = h.base(id);
        return [Number(c.latitude), Number(c.longitude)];
      };
      expect(route.points.map((p) => p.split(',').map(Number))).toEqual([pos(id1), pos(a.id)]);
      expect(h.service.store.customFields(USER)).toMatchObject({ visitGoal: 7 });
      if (options.rate) expect(h.service.stats().rateLimited).toBeGreaterThan(0);

      // The renderer heard the push: B gone with its delete's acknowledgement (the cache drops it
      // in the same write as the op), then the pull's delta: the new records, A changed.
      expect(gone).toEqual([b.id]);
      const delta = h.of('data:delta').at(-1)!;
      expect(delta.customers.upserted.map((c) => c.id).sort()).toEqual(
        [id1, id2, id3, a.id].sort(),
      );
    },
  );
});
