// A create whose answer never came, then the app closed: after reopening, the create is found
// on the service and applied, never sent a second time.
import { afterEach, describe, expect, it } from 'vitest';
import type { ServiceApi } from '../../src-main/core/ports';
import { Harness, newFields, tempId, USER } from '../support/main';

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

/** The client, with a hook run around each create (to inject a fault for exactly that request). */
function aroundCreate(api: ServiceApi, before: () => void, after: () => void): ServiceApi {
  return new Proxy(api, {
    get(target, key, receiver) {
      if (key !== 'createCustomer') {
        const value = Reflect.get(target, key, receiver) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      }
      return async (...args: Parameters<ServiceApi['createCustomer']>) => {
        before();
        try {
          return await target.createCustomer(...args);
        } finally {
          after();
        }
      };
    },
  });
}

describe.each(['with-id', 'without-id'] as const)(
  'restart with the create message %s',
  (createMessage) => {
    it('reconciles a create whose answer was lost before the app closed', async () => {
      h = await Harness.start({ variants: { createMessage } });
      await h.engine.syncNow();
      const count = h.serverCustomers().length;
      const fields = newFields('Lost Answer', { city: 'Nantes', latitude: 47.2, longitude: -1.55 });
      await h.outbox.enqueue({
        kind: 'createCustomer',
        target: tempId(1),
        payload: fields,
        base: null,
      });

      // The POST commits and its connection drops; every request after it fails the same way
      // until the app closes, so the engine cannot find out in this run.
      const service = h.service;
      const api = aroundCreate(
        h.client,
        () => service.configure({ faults: { resetAfterRate: 1 } }),
        () => undefined,
      );
      await h.close();
      await h.open({ api });
      const failed = await h.engine.syncNow();
      expect(failed.kind).toBe('error');
      expect(h.serverCustomers()).toHaveLength(count + 1);
      expect(h.outbox.list()).toHaveLength(1);
      // The rep edits the customer again: it cannot coalesce into a create already sent.
      await h.outbox.enqueue({
        kind: 'updateCustomer',
        target: tempId(1),
        payload: { notes: 'after' },
        base: null,
      });
      await h.outbox.enqueue({
        kind: 'createRoute',
        target: tempId(2),
        payload: { routeName: 'Via the lost one', customerIds: [tempId(1)] },
        base: null,
      });
      await h.close();

      service.configure({ faults: { resetAfterRate: 0 } });
      await h.open();
      const state = await h.engine.syncNow();
      expect(state.kind).toBe('synced');
      expect(h.outbox.list()).toEqual([]);
      const created = h.serverCustomers().filter((c) => c.name === 'Lost Answer');
      expect(created).toHaveLength(1);
      expect(h.serverCustomers()).toHaveLength(count + 1);
      expect(created[0]!.notes).toBe('after');
      expect(h.resolvedIds().get(tempId(1))).toBe(created[0]!.id);
      const route = h.service.store.routes(USER).find((r) => r.name === 'Via the lost one')!;
      expect(route.points).toHaveLength(1);
    });

    it('reconciles a create left in flight by a process that died during the POST', async () => {
      h = await Harness.start({ variants: { createMessage } });
      await h.engine.syncNow();
      const count = h.serverCustomers().length;
      await h.outbox.enqueue({
        kind: 'createCustomer',
        target: tempId(1),
        payload: newFields('Died Mid-Request', { company: 'Same Co' }),
        base: null,
      });
      let died!: () => void;
      const dead = new Promise<void>((resolve) => (died = resolve));
      // The process "dies" once the POST has committed: the call never returns (a fake around
      // the real client, because a killed process cannot be observed from inside itself).
      const api = new Proxy(h.client, {
        get(target, key, receiver) {
          if (key === 'createCustomer') {
            return async (...args: Parameters<ServiceApi['createCustomer']>) => {
              await target.createCustomer(...args);
              died();
              return new Promise(() => undefined);
            };
          }
          const value = Reflect.get(target, key, receiver) as unknown;
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
      await h.close();
      await h.open({ api });
      void h.engine.syncNow();
      await dead;
      expect(h.outbox.list()[0]!.state).toBe('in-flight');
      // Abandon the dead engine: only the outbox is closed, as the OS would on a kill.
      await h.outbox.close();

      await h.open();
      expect(h.outbox.list()[0]!.state).toBe('in-flight');
      const state = await h.engine.syncNow();
      expect(state.kind).toBe('synced');
      expect(h.outbox.list()).toEqual([]);
      expect(h.serverCustomers().filter((c) => c.name === 'Died Mid-Request')).toHaveLength(1);
      expect(h.serverCustomers()).toHaveLength(count + 1);
    });
  },
);
