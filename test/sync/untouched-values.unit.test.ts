// An update sends the whole record; the fields the rep did not touch go back exactly as the
// service sent them (dealAmount "353.27" stays a string, an unmapped 0,0 stays 0,0), against a
// service that gives every value back in the JSON form it was written in.
import { afterEach, describe, expect, it } from 'vitest';
import type { Customer } from '../../src-shared/domain';
import { Harness, USER } from '../support/main';

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

/** The record as the service sends it now, without the timestamp that every PUT moves. */
function wire(id: string): Record<string, unknown> {
  const { updatedAt: _updatedAt, ...rest } = h!.base(id);
  return rest;
}

/** The rep's edit base: the record of the app's snapshot (canonical forms, as the app holds it). */
function snapshotBase(id: string): Customer {
  const record = h!.of('data:snapshot')[0]!.customers.find((c) => c.id === id);
  if (!record) throw new Error(`no ${id} in the snapshot`);
  return structuredClone(record);
}

describe('PUT bodies keep the values the rep did not touch as received', () => {
  it('sends untouched dealAmount strings and 0,0 positions back byte for byte', async () => {
    h = await Harness.start({
      customers: 8,
      variants: { writtenForm: 'kept', dealAmount: 'string', unmapped: 'zero' },
    });
    const [x, y, z, w] = h.serverCustomers();
    // The service's own forms: "353.27" and an unmapped customer at 0,0.
    h.service.store.updateCustomerDirect(USER, x!.id, {
      dealAmount: 353.27,
      latitude: null,
      longitude: null,
    });
    h.service.store.updateCustomerDirect(USER, y!.id, {
      dealAmount: 1200.5,
      latitude: 48.85,
      longitude: 2.35,
    });
    h.service.store.updateCustomerDirect(USER, z!.id, { dealAmount: 10, latitude: null });
    h.service.store.updateCustomerDirect(USER, w!.id, { dealAmount: 99.99 });
    expect(h.base(x!.id)).toMatchObject({ dealAmount: '353.27', latitude: 0, longitude: 0 });
    expect((await h.engine.syncNow()).kind).toBe('synced');
    const beforeX = wire(x!.id);
    const beforeW = wire(w!.id);

    // X: the rep changes the city only; the editor may resend an unchanged value in the
    // app's canonical spelling (353.27), which is still not a change.
    await h.outbox.enqueue({
      kind: 'updateCustomer',
      target: x!.id,
      payload: { city: 'Bergen', dealAmount: 353.27 },
      base: snapshotBase(x!.id),
    });
    // Y: the rep changes the phone while someone else changes the notes on the service.
    await h.outbox.enqueue({
      kind: 'updateCustomer',
      target: y!.id,
      payload: { phone: '+47 555 0101' },
      base: snapshotBase(y!.id),
    });
    h.service.store.updateCustomerDirect(USER, y!.id, { notes: 'changed in the web app' });
    const beforeY = wire(y!.id);
    // Z: the rep places the unmapped customer on the map and sets a new deal amount.
    await h.outbox.enqueue({
      kind: 'updateCustomer',
      target: z!.id,
      payload: { latitude: 59.91, longitude: 10.75, dealAmount: 25 },
      base: snapshotBase(z!.id),
    });
    // W: an edit of nothing at all (only unchanged values in canonical form) sends no PUT.
    await h.outbox.enqueue({
      kind: 'updateCustomer',
      target: w!.id,
      payload: { dealAmount: 99.99 },
      base: snapshotBase(w!.id),
    });

    expect((await h.drain()).kind).toBe('synced');
    expect(h.outbox.list()).toEqual([]);
    expect(wire(x!.id)).toEqual({ ...beforeX, city: 'Bergen' });
    expect(wire(x!.id)).toMatchObject({ dealAmount: '353.27', latitude: 0, longitude: 0 });
    expect(wire(y!.id)).toEqual({ ...beforeY, phone: '+47 555 0101' });
    expect(wire(y!.id)).toMatchObject({
      dealAmount: '1200.5',
      latitude: 48.85,
      longitude: 2.35,
      notes: 'changed in the web app',
    });
    expect(wire(z!.id)).toMatchObject({ latitude: 59.91, longitude: 10.75, dealAmount: 25 });
    expect(wire(w!.id)).toEqual(beforeW);
    expect(h.base(w!.id).updatedAt).toEqual(snapshotBase(w!.id).updatedAt);
  });
});
