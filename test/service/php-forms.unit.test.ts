// The reference service plays PHP's forms: DateTime JSON with microseconds in every
// timezone_type, and a backend that gives values back in the JSON form they were written in.
import { describe, expect, it } from 'vitest';
import type { ServiceStore } from '../../src-service/index';
import { parseCliArgs } from '../../src-service/cli-args';
import { call, serve } from '../support/service';

const JULY = Date.UTC(2026, 6, 1, 12, 0, 0, 417);
const JANUARY = Date.UTC(2026, 0, 15, 12, 0, 0, 5);

describe('reference service: PHP timestamps', () => {
  it.each([
    [1, '+02:00', JULY, '2026-07-01 14:00:00.417000'],
    [1, '-03:30', JULY, '2026-07-01 08:30:00.417000'],
    [2, 'EST', JULY, '2026-07-01 07:00:00.417000'],
    [2, 'CEST', JANUARY, '2026-01-15 14:00:00.005000'],
    // PHP's abbreviation table: IST is Israel Standard Time (+02:00).
    [2, 'IST', JULY, '2026-07-01 14:00:00.417000'],
    [3, 'Europe/Oslo', JULY, '2026-07-01 14:00:00.417000'],
    [3, 'Europe/Oslo', JANUARY, '2026-01-15 13:00:00.005000'],
    [3, 'America/St_Johns', JULY, '2026-07-01 09:30:00.417000'],
    [3, 'Asia/Kolkata', JANUARY, '2026-01-15 17:30:00.005000'],
  ] as const)(
    'timezone_type %i "%s" writes the wall time there with six fraction digits',
    async (type, timezone, instant, date) => {
      const s = await serve({
        variants: { timezoneType: type, timezone, timestampFraction: 'micro' },
      });
      const stored = [...(s.store as ServiceStore).account('demo')!.customers.values()][0]!;
      stored.createdAtMs = instant;
      const res = await call(s, 'GET', `/api/v1/customers/${stored.id}`);
      expect(res.json.createdAt).toEqual({ date, timezone_type: type, timezone });
      // Routes and the user metadata use the same form.
      const user = await call(s, 'GET', '/api/v1/user');
      expect(user.json.createdAt.date).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}$/);
      expect(user.json.createdAt).toMatchObject({ timezone_type: type, timezone });
    },
  );

  it('without the fraction variant writes whole seconds; the default designators stay', async () => {
    const s = await serve({ variants: { timezoneType: 1 } });
    const stored = [...(s.store as ServiceStore).account('demo')!.customers.values()][0]!;
    stored.createdAtMs = JULY;
    const res = await call(s, 'GET', `/api/v1/customers/${stored.id}`);
    expect(res.json.createdAt).toEqual({
      date: '2026-07-01 12:00:00',
      timezone_type: 1,
      timezone: '+00:00',
    });
  });

  it('takes the variants from the command line too', () => {
    const o = parseCliArgs([
      '--timezone-type',
      '2',
      '--timezone',
      'EST',
      '--timestamp-fraction',
      'micro',
      '--written-form',
      'kept',
    ]);
    expect(o.variants).toEqual({
      timezoneType: 2,
      timezone: 'EST',
      timestampFraction: 'micro',
      writtenForm: 'kept',
    });
    expect(() => parseCliArgs(['--timezone', 'EST'])).toThrow(/timezone_type 3/);
    expect(() => parseCliArgs(['--timestamp-fraction', 'nano'])).toThrow(/timestampFraction/);
  });

  it('refuses a designator that does not fit the timezone_type, naming both', async () => {
    const s = await serve({ variants: { timezoneType: 3 } });
    expect(() => s.configure({ variants: { timezone: 'EST' } })).toThrow(/EST.*timezone_type 3/);
    expect(() => s.configure({ variants: { timezone: 'Mars/Olympus' } })).toThrow(/timezone/);
    s.configure({ variants: { timezoneType: 2, timezone: 'EST' } });
    expect(() => s.configure({ variants: { timezoneType: 1 } })).toThrow(/timezone_type 1/);
    await expect(serve({ variants: { timezone: '+02:00' } })).rejects.toThrow(/timezone_type 3/);
  });
});

describe('reference service: values given back in the form written', () => {
  it('keeps dealAmount and the position in the JSON form last written', async () => {
    const s = await serve({
      variants: { writtenForm: 'kept', dealAmount: 'string', unmapped: 'zero' },
    });
    const created = await call(s, 'POST', '/api/v1/customers', { body: { name: 'Kept' } });
    expect(created.status).toBe(201);
    const id = s.store.customers('demo').find((c) => c.name === 'Kept')!.id;
    // Never written: the service's own form.
    let got = (await call(s, 'GET', `/api/v1/customers/${id}`)).json;
    expect(got).toMatchObject({ dealAmount: null, latitude: 0, longitude: 0 });

    await call(s, 'PUT', `/api/v1/customers/${id}`, {
      body: { dealAmount: '353.27', latitude: 0, longitude: 0 },
    });
    got = (await call(s, 'GET', `/api/v1/customers/${id}`)).json;
    expect(got).toMatchObject({ dealAmount: '353.27', latitude: 0, longitude: 0 });
    // A patch of other fields keeps them; writing another form shows that form.
    await call(s, 'PUT', `/api/v1/customers/${id}`, { body: { city: 'Oslo' } });
    expect((await call(s, 'GET', `/api/v1/customers/${id}`)).json.dealAmount).toBe('353.27');
    await call(s, 'PUT', `/api/v1/customers/${id}`, {
      body: { dealAmount: 353.27, latitude: null, longitude: null },
    });
    got = (await call(s, 'GET', `/api/v1/customers/${id}`)).json;
    expect(got).toMatchObject({ dealAmount: 353.27, latitude: null, longitude: null });
    // The list says the same, and the 'parsed' reading gives the service's own form again.
    const listed = (await call(s, 'GET', '/api/v1/customers')).json.find(
      (c: { id: string }) => c.id === id,
    );
    expect(listed).toMatchObject({ dealAmount: 353.27, latitude: null });
    s.configure({ variants: { writtenForm: 'parsed' } });
    got = (await call(s, 'GET', `/api/v1/customers/${id}`)).json;
    expect(got).toMatchObject({ dealAmount: '353.27', latitude: 0, longitude: 0 });
  });

  it('a replace forgets the forms of the fields it did not send', async () => {
    const s = await serve({
      variants: { writtenForm: 'kept', put: 'replace', dealAmount: 'string' },
    });
    const id = s.store.customers('demo')[0]!.id;
    await call(s, 'PUT', `/api/v1/customers/${id}`, { body: { name: 'R', dealAmount: 12 } });
    expect((await call(s, 'GET', `/api/v1/customers/${id}`)).json.dealAmount).toBe(12);
    await call(s, 'PUT', `/api/v1/customers/${id}`, { body: { name: 'R2' } });
    expect((await call(s, 'GET', `/api/v1/customers/${id}`)).json.dealAmount).toBeNull();
    await call(s, 'PUT', `/api/v1/customers/${id}`, { body: { name: 'R3', dealAmount: '7.50' } });
    expect((await call(s, 'GET', `/api/v1/customers/${id}`)).json.dealAmount).toBe('7.50');
  });
});
