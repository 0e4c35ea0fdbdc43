// Bad input gets a clear 4xx naming the problem, and changes nothing.
import { describe, expect, it } from 'vitest';
import type { RunningService } from '../../src-service/index';
import { call, serve } from '../support/service';

/** Snapshot of everything a write could touch. */
function state(s: RunningService) {
  return {
    customers: s.store.customers('demo'),
    routes: s.store.routes('demo'),
    customFields: s.store.customFields('demo'),
    user: s.store.user('demo'),
  };
}

describe('reference service: bad input', () => {
  it('answers unknown paths 404 and wrong methods 405 with Allow', async () => {
    const s = await serve();
    const id = s.store.customers('demo')[0]!.id;
    for (const path of [
      '/api/v1/nope',
      '/api/v2/customers',
      '/customers',
      '/api/v1/customers/a/b',
      '/api/v1/',
    ]) {
      const res = await call(s, 'GET', path);
      expect(res.status, path).toBe(404);
      expect(res.json.error).toBe('not_found');
    }
    const cases: [string, string, string][] = [
      ['DELETE', '/api/v1/customers', 'GET, POST'],
      ['PUT', '/api/v1/routes', 'GET, POST'],
      ['POST', '/api/v1/territories', 'GET'],
      ['POST', '/api/v1/user', 'GET'],
      ['GET', '/api/v1/user/customfields', 'PUT'],
      ['POST', `/api/v1/customers/${id}`, 'GET, PUT, DELETE'],
      ['DELETE', '/api/v1/customers/search/abc', 'GET'],
      ['PATCH', `/api/v1/customers/${id}`, 'GET, PUT, DELETE'],
    ];
    for (const [method, path, allow] of cases) {
      const res = await call(s, method, path);
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.get('allow')).toBe(allow);
      expect(res.json.error).toBe('method_not_allowed');
    }
  });

  it('refuses malformed JSON (400), wrong Content-Type (415) and bodies over 1 MB (413)', async () => {
    const s = await serve();
    const before = state(s);
    const id = before.customers[0]!.id;
    const malformed = await call(s, 'POST', '/api/v1/customers', { raw: '{"name": "x",' });
    expect(malformed.status).toBe(400);
    expect(malformed.json.error).toBe('malformed_json');
    const empty = await call(s, 'PUT', `/api/v1/customers/${id}`, { raw: '' });
    expect(empty.status).toBe(400);
    const textPlain = await call(s, 'POST', '/api/v1/customers', {
      raw: JSON.stringify({ name: 'x' }),
      contentType: 'text/plain',
    });
    expect(textPlain.status).toBe(415);
    expect(textPlain.json.error).toBe('unsupported_media_type');
    const noType = await fetch(`${s.url}/api/v1/user/customfields`, {
      method: 'PUT',
      headers: { Authorization: `Basic ${Buffer.from('demo:demo').toString('base64')}` },
    });
    expect(noType.status).toBe(415);
    const charset = await call(s, 'POST', '/api/v1/customers', {
      body: { name: 'with charset' },
      contentType: 'application/json; charset=utf-8',
    });
    expect(charset.status).toBe(201);
    const big = await call(s, 'POST', '/api/v1/customers', {
      body: { name: 'big', notes: 'x'.repeat(1024 * 1024) },
    });
    expect(big.status).toBe(413);
    expect(big.json.error).toBe('payload_too_large');
    expect(s.store.customers('demo')).toHaveLength(before.customers.length + 1);
    expect(s.store.customers('demo').filter((c) => c.name === 'big')).toEqual([]);
  });

  it('refuses unknown and read-only fields, naming them', async () => {
    const s = await serve();
    const before = state(s);
    const id = before.customers[0]!.id;
    const unknown = await call(s, 'POST', '/api/v1/customers', {
      body: { name: 'x', nickname: 'y', Email: 'z' },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.json).toMatchObject({ error: 'unknown_fields', fields: ['nickname', 'Email'] });
    expect(unknown.json.message).toContain('nickname');
    for (const field of ['id', 'createdAt', 'updatedAt']) {
      const res = await call(s, 'PUT', `/api/v1/customers/${id}`, {
        body: { name: 'x', [field]: field === 'id' ? id : { date: '2020-01-01 00:00:00' } },
      });
      expect(res.status, field).toBe(400);
      expect(res.json.fields).toEqual([field]);
      expect(res.json.message).toContain(field);
    }
    expect(state(s)).toEqual(before);
  });

  it('refuses wrong field types, naming the field', async () => {
    const s = await serve();
    const before = state(s);
    const id = before.customers[0]!.id;
    const bad: [string, unknown][] = [
      ['name', 5],
      ['name', ''],
      ['name', '   '],
      ['company', null],
      ['zip', 60601],
      ['custom3', true],
      ['groups', 'Retail'],
      ['groups', ['ok', 3]],
      ['dealAmount', 'lots'],
      ['dealAmount', ''],
      ['dealAmount', '0x10'],
      ['dealAmount', '1e3'],
      ['dealAmount', ' 12'],
      ['dealAmount', true],
      ['latitude', '41.8'],
      ['longitude', {}],
      ['latitude', 90.5],
      ['latitude', -91],
      ['longitude', 180.01],
      ['longitude', -200],
      ['lastVisit', 1.5],
      ['numVisits', '3'],
      ['numVisits', -1],
      ['remindAt', 'tomorrow'],
      ['color', 'magenta'],
      ['color', 7],
      ['remindType', 1],
    ];
    for (const [field, value] of bad) {
      const create = await call(s, 'POST', '/api/v1/customers', {
        body: { name: 'x', [field]: value },
      });
      expect(create.status, `POST ${field}=${JSON.stringify(value)}`).toBe(400);
      expect(create.json.fields).toEqual([field]);
      expect(create.json.message).toContain(field);
      const update = await call(s, 'PUT', `/api/v1/customers/${id}`, { body: { [field]: value } });
      expect(update.status, `PUT ${field}=${JSON.stringify(value)}`).toBe(400);
      expect(update.json.fields).toEqual([field]);
    }
    const missingName = await call(s, 'POST', '/api/v1/customers', {
      body: { company: 'No name' },
    });
    expect(missingName.status).toBe(400);
    expect(missingName.json.fields).toEqual(['name']);
    for (const body of [[], 'x', 7, null]) {
      const res = await call(s, 'POST', '/api/v1/customers', { body });
      expect(res.status).toBe(400);
      expect(res.json.error).toBe('invalid_body');
    }
    expect(state(s)).toEqual(before);
  });

  it('accepts the documented lenient forms: numeric-string dealAmount, null integers and positions', async () => {
    const s = await serve();
    const res = await call(s, 'POST', '/api/v1/customers', {
      body: {
        name: 'Lenient',
        dealAmount: '2500.75',
        lastVisit: null,
        remindAt: null,
        latitude: 90,
        longitude: -180,
      },
    });
    expect(res.status).toBe(201);
    const c = s.store.customers('demo').find((x) => x.name === 'Lenient')!;
    expect(c).toMatchObject({
      dealAmount: 2500.75,
      lastVisit: 0,
      remindAt: 0,
      latitude: 90,
      longitude: -180,
    });
  });

  it('refuses bad route bodies and custom-field bodies', async () => {
    const s = await serve();
    const before = state(s);
    const id = before.customers.find((c) => c.latitude !== null)!.id;
    const routeBodies: [unknown, string][] = [
      [{ customerIds: [id] }, 'routeName'],
      [{ routeName: '', customerIds: [id] }, 'routeName'],
      [{ routeName: 7, customerIds: [id] }, 'routeName'],
      [{ routeName: 'r' }, 'customerIds'],
      [{ routeName: 'r', customerIds: [] }, 'customerIds'],
      [{ routeName: 'r', customerIds: id }, 'customerIds'],
      [{ routeName: 'r', customerIds: [5] }, 'customerIds'],
      [{ routeName: 'r', customerIds: [id], color: 'red' }, 'color'],
    ];
    for (const [body, field] of routeBodies) {
      const res = await call(s, 'POST', '/api/v1/routes', { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.fields).toEqual([field]);
    }
    const fieldBodies: unknown[] = [
      {},
      [],
      { a: '1' },
      { a: 1.5 },
      { a: null },
      { a: { b: 1 } },
      { '': 1 },
      5,
    ];
    for (const body of fieldBodies) {
      const res = await call(s, 'PUT', '/api/v1/user/customfields', { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(typeof res.json.message).toBe('string');
    }
    const named = await call(s, 'PUT', '/api/v1/user/customfields', { body: { ok: 1, bad: 'x' } });
    expect(named.json.fields).toEqual(['bad']);
    const proto = await call(s, 'PUT', '/api/v1/user/customfields', { raw: '{"__proto__": 1}' });
    expect(proto.status).toBe(400);
    expect(proto.json.fields).toEqual(['__proto__']);
    const protoCustomer = await call(s, 'POST', '/api/v1/customers', {
      raw: '{"name":"x","__proto__":{"a":1}}',
    });
    expect(protoCustomer.json.fields).toEqual(['__proto__']);
    expect(state(s)).toEqual(before);
  });
});
