// Timestamps as PHP's DateTime sends them: microseconds, and timezone_type 1 (offset),
// 2 (abbreviation) and 3 (IANA zone). The client signs in against each, and every timestamp
// converts to the instant the service holds.
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatTimestamp } from '../../src-service/timestamps';
import {
  DEFAULT_VARIANTS,
  startService,
  type RunningService,
  type ServiceStore,
  type Variants,
} from '../../src-service/index';
import {
  CustomerSchema,
  TimestampSchema,
  UserMetaSchema,
  type Timestamp,
} from '../../src-shared/domain';
import { timestampToEpochMs } from '../../src-shared/time';
import { clientFor, REP } from '../support/service';

let service: RunningService;

beforeAll(async () => {
  service = await startService({ rate: 0, accounts: [{ ...REP, customers: 60, seed: 5 }] });
});
afterAll(() => service.stop());

const readings: Array<Partial<Variants>> = [
  { timezoneType: 3, timezone: 'UTC' },
  { timezoneType: 1, timezone: '+02:00' },
  { timezoneType: 1, timezone: '-03:30' },
  { timezoneType: 2, timezone: 'EST' },
  { timezoneType: 2, timezone: 'CEST' },
  { timezoneType: 2, timezone: 'IST' },
  { timezoneType: 3, timezone: 'Europe/Oslo' },
  { timezoneType: 3, timezone: 'America/St_Johns' },
];

describe('ServiceClient reads PHP timestamps', () => {
  it.each(readings)(
    'signs in and lists under %o with microseconds, each instant exact',
    async (variant) => {
      service.configure({ variants: { ...variant, timestampFraction: 'micro' } });
      try {
        const client = clientFor(service.url);
        const user = await client.getUser();
        expect(user.createdAt.date).toMatch(/\.\d{6}$/);
        expect(user.createdAt.timezone).toBe(variant.timezone);
        const account = (service.store as ServiceStore).account(REP.username)!;
        const full = { ...DEFAULT_VARIANTS, ...variant, timestampFraction: 'micro' as const };
        // Exact, except where PHP's text itself is ambiguous: a wall time that happens twice
        // when clocks go back reads as the first; the service then wrote that same text.
        const expectInstant = (ts: Timestamp, instant: number) => {
          const read = timestampToEpochMs(ts);
          expect([0, 3_600_000]).toContain(instant - read);
          expect(formatTimestamp(read, full)).toEqual(ts);
        };
        expectInstant(user.createdAt, account.createdAtMs);
        const customers = await client.listCustomers();
        expect(customers).toHaveLength(account.customers.size);
        let exact = 0;
        for (const c of customers) {
          const stored = account.customers.get(c.id)!;
          expectInstant(c.createdAt, stored.createdAtMs);
          expectInstant(c.updatedAt, stored.updatedAtMs);
          if (timestampToEpochMs(c.createdAt) === stored.createdAtMs) exact++;
        }
        expect(exact).toBeGreaterThanOrEqual(customers.length - 2);
        const routes = await client.listRoutes();
        expect(routes.length).toBeGreaterThan(0);
        await client.listTerritories();
      } finally {
        service.configure({
          variants: { timezoneType: 3, timezone: 'default', timestampFraction: 'none' },
        });
      }
    },
  );
});

describe('TimestampSchema', () => {
  const ok = (ts: unknown) => v.safeParse(TimestampSchema, ts).success;

  it('accepts PHP DateTime JSON: fraction digits, every timezone_type', () => {
    expect(ok({ date: '2026-11-23 02:47:23.000000', timezone_type: 3, timezone: 'UTC' })).toBe(
      true,
    );
    expect(ok({ date: '2026-11-23 02:47:23.5', timezone_type: 1, timezone: '+02:00' })).toBe(true);
    expect(ok({ date: '2026-11-23 02:47:23', timezone_type: 2, timezone: 'EST' })).toBe(true);
    // MySQL's zero date read by PHP comes out in year -1.
    expect(ok({ date: '-0001-11-30 00:00:00.000000', timezone_type: 3, timezone: 'UTC' })).toBe(
      true,
    );
  });

  it('accepts a zone it cannot convert (it is shown as sent) but not a broken date', () => {
    expect(ok({ date: '2026-11-23 02:47:23', timezone_type: 3, timezone: 'Mars/Olympus' })).toBe(
      true,
    );
    expect(ok({ date: '2026-11-23 02:47:23', timezone_type: 2, timezone: 'XYZT' })).toBe(true);
    expect(ok({ date: 'yesterday', timezone_type: 3, timezone: 'UTC' })).toBe(false);
    expect(ok({ date: '2026-11-23 02:47:23.', timezone_type: 3, timezone: 'UTC' })).toBe(false);
    expect(ok({ date: '2026-11-23 02:47:23', timezone_type: 4, timezone: 'UTC' })).toBe(false);
  });

  it('keeps the exact form received in customers and the user metadata', () => {
    const ts = { date: '2026-11-23 02:47:23.000000', timezone_type: 2, timezone: 'EST' };
    const user = v.parse(UserMetaSchema, {
      username: 'u',
      name: '',
      phone: '',
      numPins: 0,
      colors: [],
      numGroups: 0,
      groups: [],
      hiddenGroups: [],
      requiredGroups: [],
      createdAt: ts,
      updatedAt: { ...ts, timezone_type: 3, timezone: 'Nowhere/Special' },
    });
    expect(user.createdAt).toEqual(ts);
    expect(user.updatedAt.timezone).toBe('Nowhere/Special');
    const customer = service.store.customers(REP.username)[0]!;
    const parsed = v.parse(CustomerSchema, { ...customer, createdAt: ts });
    expect(parsed.createdAt).toEqual(ts);
  });
});
