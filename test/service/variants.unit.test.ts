// Every reading of the spec's gaps the service can play.
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { CustomerSchema } from '../../src-shared/domain';
import { timestampToEpochMs } from '../../src-shared/time';
import { call, idFromMessage, serve } from '../support/service';

describe('reference service: variants', () => {
  it('create message with or without the new id (customers and routes)', async () => {
    const s = await serve({ variants: { createMessage: 'without-id' } });
    const res = await call(s, 'POST', '/api/v1/customers', { body: { name: 'No id please' } });
    expect(res.status).toBe(201);
    expect(res.json).toEqual({ message: 'Object created' });
    expect(s.store.customers('demo').filter((c) => c.name === 'No id please')).toHaveLength(1);
    const mapped = s.store.customers('demo').find((c) => c.latitude !== null)!;
    const route = await call(s, 'POST', '/api/v1/routes', {
      body: { routeName: 'r', customerIds: [mapped.id] },
    });
    expect(route.json).toEqual({ message: 'Object created' });
    s.configure({ variants: { createMessage: 'with-id' } });
    const withId = await call(s, 'POST', '/api/v1/customers', { body: { name: 'Id please' } });
    expect(s.store.customer('demo', idFromMessage(withId.json.message))!.name).toBe('Id please');
  });

  it('PUT as replace resets the fields not sent to their defaults and needs a name', async () => {
    const s = await serve({ variants: { put: 'replace' } });
    const before = s.store.customers('demo').find((c) => c.company !== '' && c.latitude !== null)!;
    const noName = await call(s, 'PUT', `/api/v1/customers/${before.id}`, { body: { phone: '1' } });
    expect(noName.status).toBe(400);
    expect(noName.json.fields).toEqual(['name']);
    expect(s.store.customer('demo', before.id)).toEqual(before);
    const res = await call(s, 'PUT', `/api/v1/customers/${before.id}`, {
      body: { name: 'Replaced', phone: '555' },
    });
    expect(res.status).toBe(200);
    const after = s.store.customer('demo', before.id)!;
    expect(after).toMatchObject({
      id: before.id,
      name: 'Replaced',
      phone: '555',
      company: '',
      latitude: null,
      longitude: null,
      groups: [],
      color: 'blue',
      dealAmount: null,
      numVisits: 0,
    });
    expect(after.createdAt).toEqual(before.createdAt);
  });

  it('PUT as patch keeps the fields not sent', async () => {
    const s = await serve({ variants: { put: 'patch' } });
    const before = s.store.customers('demo').find((c) => c.company !== '')!;
    await call(s, 'PUT', `/api/v1/customers/${before.id}`, { body: { city: 'Elsewhere' } });
    const after = s.store.customer('demo', before.id)!;
    expect(after).toEqual({ ...before, city: 'Elsewhere', updatedAt: after.updatedAt });
  });

  it('timezone_type 1, 2 and 3 all denote the same instant', async () => {
    const s = await serve({ variants: { timezoneType: 1 } });
    const id = s.store.customers('demo')[0]!.id;
    const seen: Record<number, { date: string; timezone_type: number; timezone: string }> = {};
    for (const type of [1, 2, 3] as const) {
      s.configure({ variants: { timezoneType: type } });
      const res = await call(s, 'GET', `/api/v1/customers/${id}`);
      v.parse(CustomerSchema, res.json);
      seen[type] = res.json.createdAt;
      const user = await call(s, 'GET', '/api/v1/user');
      expect(user.json.createdAt.timezone_type).toBe(type);
      const routes = await call(s, 'GET', '/api/v1/routes');
      expect(routes.json[0].updatedAt.timezone_type).toBe(type);
    }
    expect(seen[1]).toMatchObject({ timezone_type: 1, timezone: '+00:00' });
    expect(seen[2]).toMatchObject({ timezone_type: 2, timezone: 'Z' });
    expect(seen[3]).toMatchObject({ timezone_type: 3, timezone: 'America/Chicago' });
    expect(seen[3]!.date).not.toBe(seen[1]!.date);
    const instants = [1, 2, 3].map((t) => timestampToEpochMs(seen[t] as never));
    expect(new Set(instants).size).toBe(1);
    expect(Number.isNaN(instants[0])).toBe(false);
  });

  it('emits unmapped customers with null or 0 positions', async () => {
    const s = await serve();
    const id = s.store.createCustomerDirect('demo', { name: 'Nowhere' }).id;
    const nulls = await call(s, 'GET', `/api/v1/customers/${id}`);
    expect(nulls.json).toMatchObject({ latitude: null, longitude: null });
    s.configure({ variants: { unmapped: 'zero' } });
    const zeros = await call(s, 'GET', `/api/v1/customers/${id}`);
    expect(zeros.json).toMatchObject({ latitude: 0, longitude: 0 });
    // A client echoing the zeros back keeps the customer unmapped in either reading.
    await call(s, 'PUT', `/api/v1/customers/${id}`, { body: { latitude: 0, longitude: 0 } });
    s.configure({ variants: { unmapped: 'null' } });
    expect((await call(s, 'GET', `/api/v1/customers/${id}`)).json.latitude).toBeNull();
    const mapped = s.store.customers('demo').find((c) => c.latitude !== null)!;
    s.configure({ variants: { unmapped: 'zero' } });
    expect(s.store.customer('demo', mapped.id)!.latitude).toBe(mapped.latitude);
  });

  it('emits dealAmount as a number or a string, null stays null', async () => {
    const s = await serve();
    const withDeal = s.store.createCustomerDirect('demo', { name: 'Deal', dealAmount: 1500.25 }).id;
    const noDeal = s.store.createCustomerDirect('demo', { name: 'No deal' }).id;
    expect((await call(s, 'GET', `/api/v1/customers/${withDeal}`)).json.dealAmount).toBe(1500.25);
    s.configure({ variants: { dealAmount: 'string' } });
    expect((await call(s, 'GET', `/api/v1/customers/${withDeal}`)).json.dealAmount).toBe('1500.25');
    expect((await call(s, 'GET', `/api/v1/customers/${noDeal}`)).json.dealAmount).toBeNull();
    const list = await call(s, 'GET', '/api/v1/customers');
    for (const c of list.json)
      expect(c.dealAmount === null || typeof c.dealAmount === 'string').toBe(true);
  });

  it('refuses unknown variants and values', async () => {
    await expect(serve({ variants: { put: 'merge' as never } })).rejects.toThrow(/put/);
    const s = await serve();
    expect(() => s.configure({ variants: { timezoneType: 4 as never } })).toThrow(/timezoneType/);
  });
});
