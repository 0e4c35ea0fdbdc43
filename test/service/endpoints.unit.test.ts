// Contract of the eleven endpoints over real HTTP: shapes, status codes, per-account data.
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  CustomerSchema,
  CUSTOMER_WRITABLE_FIELDS,
  PALETTE,
  RouteSchema,
  TerritorySchema,
  UserMetaSchema,
} from '../../src-shared/domain';
import { basic, call, idFromMessage, serve } from '../support/service';

const ID = /^[A-Za-z0-9]{10}$/;

describe('reference service endpoints', () => {
  it('lists every customer of the account in the spec shape', async () => {
    const s = await serve();
    const res = await call(s, 'GET', '/api/v1/customers');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json; charset=utf-8/);
    expect(res.json).toHaveLength(40);
    for (const c of res.json) {
      v.parse(CustomerSchema, c);
      expect(c.id).toMatch(ID);
      expect(Object.keys(c).sort()).toEqual(
        [...CUSTOMER_WRITABLE_FIELDS, 'id', 'createdAt', 'updatedAt'].sort(),
      );
    }
    expect(res.json).toEqual(s.store.customers('demo'));
  });

  it('gets one customer by id and 404s an unknown id', async () => {
    const s = await serve();
    const [first] = s.store.customers('demo');
    const res = await call(s, 'GET', `/api/v1/customers/${first!.id}`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual(first);
    const missing = await call(s, 'GET', '/api/v1/customers/ZZZZZZZZZZ');
    expect(missing.status).toBe(404);
    expect(missing.json).toMatchObject({ error: 'not_found' });
  });

  it("never shows another account's customer: 404 on get, update and delete", async () => {
    const s = await serve();
    const other = s.store.customers('demo2')[0]!;
    expect((await call(s, 'GET', `/api/v1/customers/${other.id}`)).status).toBe(404);
    expect(
      (await call(s, 'PUT', `/api/v1/customers/${other.id}`, { body: { name: 'x' } })).status,
    ).toBe(404);
    expect((await call(s, 'DELETE', `/api/v1/customers/${other.id}`)).status).toBe(404);
    expect(s.store.customer('demo2', other.id)).toEqual(other);
    const asOwner = await call(s, 'GET', `/api/v1/customers/${other.id}`, {
      auth: basic('demo2', 'demo2'),
    });
    expect(asOwner.json).toEqual(other);
  });

  it('creates a customer: 201, message with the new id, defaults for missing fields', async () => {
    const s = await serve();
    const res = await call(s, 'POST', '/api/v1/customers', {
      body: {
        name: 'Acme Corp',
        company: 'Acme',
        address: '1 Main St',
        city: 'Austin',
        state: 'TX',
      },
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.json)).toEqual(['message']);
    const id = idFromMessage(res.json.message);
    expect(res.json.message).toBe(`Customer object created with id ${id}`);
    const stored = s.store.customer('demo', id)!;
    expect(stored).toMatchObject({
      name: 'Acme Corp',
      company: 'Acme',
      zip: '',
      email: '',
      color: 'blue',
      groups: [],
      dealAmount: null,
      latitude: null,
      longitude: null,
      lastVisit: 0,
      numVisits: 0,
      remindAt: 0,
      custom9: '',
    });
    expect(stored.createdAt).toEqual(stored.updatedAt);
    expect(s.store.customers('demo')).toHaveLength(41);
    expect(s.store.customers('demo2')).toHaveLength(40);
    const got = await call(s, 'GET', `/api/v1/customers/${id}`);
    expect(got.json).toEqual(stored);
  });

  it('creates with every writable field and stores them as sent', async () => {
    const s = await serve();
    const body = {
      name: 'Zoë Café',
      company: 'Bean There',
      address: '9 Rue Saint-Denis',
      city: 'Montréal',
      state: 'QC',
      zip: 'H2X 1K4',
      country: 'Canada',
      email: 'zoe@example.com',
      phone: '(514) 555-0101',
      color: 'neon purple',
      groups: ['Retail', 'New group'],
      dealAmount: 1234.5,
      notes: 'Line one\nline two',
      latitude: 45.5017,
      longitude: -73.5673,
      lastVisit: 1_700_000_000,
      numVisits: 3,
      remindAt: 1_800_000_000,
      remindType: 'call',
      custom0: 'a',
      custom1: 'b',
      custom2: '',
      custom3: '',
      custom4: '',
      custom5: '',
      custom6: '',
      custom7: '',
      custom8: '',
      custom9: 'z',
    };
    const res = await call(s, 'POST', '/api/v1/customers', { body });
    expect(res.status).toBe(201);
    expect(s.store.customer('demo', idFromMessage(res.json.message))).toMatchObject(body);
  });

  it('updates only the fields sent (patch) and names the id in the message', async () => {
    const s = await serve();
    const before = s.store.customers('demo')[0]!;
    const res = await call(s, 'PUT', `/api/v1/customers/${before.id}`, {
      body: { phone: '555-0000' },
    });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ message: `Customer ${before.id} was successfully updated` });
    const after = s.store.customer('demo', before.id)!;
    expect(after).toEqual({ ...before, phone: '555-0000', updatedAt: after.updatedAt });
    expect(after.updatedAt).not.toEqual(before.updatedAt);
  });

  it('deletes a customer; a second delete is 404', async () => {
    const s = await serve();
    const target = s.store.customers('demo')[1]!;
    const res = await call(s, 'DELETE', `/api/v1/customers/${target.id}`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ message: `Customer ${target.id} was deleted` });
    expect(s.store.customer('demo', target.id)).toBeUndefined();
    expect(s.store.customers('demo')).toHaveLength(39);
    expect((await call(s, 'DELETE', `/api/v1/customers/${target.id}`)).status).toBe(404);
    expect((await call(s, 'GET', `/api/v1/customers/${target.id}`)).status).toBe(404);
  });

  it('lists routes and territories in the spec shape', async () => {
    const s = await serve();
    const routes = await call(s, 'GET', '/api/v1/routes');
    expect(routes.status).toBe(200);
    expect(routes.json.length).toBeGreaterThan(0);
    for (const r of routes.json) v.parse(RouteSchema, r);
    expect(routes.json).toEqual(s.store.routes('demo'));
    const territories = await call(s, 'GET', '/api/v1/territories');
    expect(territories.status).toBe(200);
    expect(territories.json.length).toBeGreaterThan(0);
    for (const t of territories.json) {
      v.parse(TerritorySchema, t);
      expect(t.points[0]).toBe(t.points[t.points.length - 1]);
    }
  });

  it('creates a route from customer positions in the given order', async () => {
    const s = await serve();
    const mapped = s.store.customers('demo').filter((c) => c.latitude !== null);
    const ids = [mapped[2]!.id, mapped[0]!.id, mapped[1]!.id];
    const res = await call(s, 'POST', '/api/v1/routes', {
      body: { routeName: 'Tuesday', customerIds: ids },
    });
    expect(res.status).toBe(201);
    const routeId = /with id ([A-Za-z0-9]{10})$/.exec(res.json.message)![1];
    const route = s.store.routes('demo').find((r) => r.id === routeId)!;
    expect(route.name).toBe('Tuesday');
    expect(route.points).toEqual(
      ids.map((id) => {
        const c = mapped.find((m) => m.id === id)!;
        return `${c.latitude},${c.longitude}`;
      }),
    );
    const listed = await call(s, 'GET', '/api/v1/routes');
    expect(listed.json.map((r: { id: string }) => r.id)).toContain(routeId);
  });

  it('refuses a route naming missing, foreign or unmapped customers, naming them', async () => {
    const s = await serve();
    const mine = s.store.customers('demo');
    const mapped = mine.find((c) => c.latitude !== null)!;
    const unmapped = s.store.createCustomerDirect('demo', { name: 'No position' });
    const foreign = s.store.customers('demo2')[0]!;
    const before = s.store.routes('demo');
    const res = await call(s, 'POST', '/api/v1/routes', {
      body: { routeName: 'Bad', customerIds: [mapped.id, 'NOPENOPE00', foreign.id, unmapped.id] },
    });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('invalid_customer_ids');
    expect(res.json.ids).toEqual(['NOPENOPE00', foreign.id, unmapped.id]);
    expect(res.json.message).toContain('NOPENOPE00');
    expect(s.store.routes('demo')).toEqual(before);
  });

  it('returns the user metadata with the palette and custom fields', async () => {
    const s = await serve();
    const res = await call(s, 'GET', '/api/v1/user');
    expect(res.status).toBe(200);
    v.parse(UserMetaSchema, res.json);
    expect(res.json.username).toBe('demo');
    expect(res.json.colors).toEqual([...PALETTE]);
    expect(res.json.numPins).toBe(40);
    expect(res.json.numGroups).toBe(res.json.groups.length);
    expect(res.json.customFields).toEqual(s.store.customFields('demo'));
    const other = await call(s, 'GET', '/api/v1/user', { auth: basic('demo2', 'demo2') });
    expect(other.json.username).toBe('demo2');
  });

  it('merges custom fields into the account', async () => {
    const s = await serve();
    const before = s.store.customFields('demo');
    const res = await call(s, 'PUT', '/api/v1/user/customfields', {
      body: { 'Calls made': 12, Visits: 0 },
    });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ message: 'Custom fields were successfully updated' });
    expect(s.store.customFields('demo')).toEqual({ ...before, 'Calls made': 12, Visits: 0 });
    const user = await call(s, 'GET', '/api/v1/user');
    expect(user.json.customFields['Calls made']).toBe(12);
    expect(s.store.customFields('demo2')).not.toHaveProperty('Calls made');
  });

  it('direct store changes are seen by the API and bump updatedAt', async () => {
    const s = await serve();
    const c = s.store.customers('demo')[0]!;
    const changed = s.store.updateCustomerDirect('demo', c.id, { notes: 'changed on the server' });
    expect(changed.updatedAt).not.toEqual(c.updatedAt);
    const res = await call(s, 'GET', `/api/v1/customers/${c.id}`);
    expect(res.json.notes).toBe('changed on the server');
    s.store.addAccount({ username: 'late', password: 'pw', customers: 3 });
    const late = await call(s, 'GET', '/api/v1/customers', { auth: basic('late', 'pw') });
    expect(late.json).toHaveLength(3);
  });
});
