// The seeded demo generator: realistic shape, shares and determinism; 100k customers.
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { CustomerSchema, PALETTE } from '../../src-shared/domain';
import { haversineMeters, parsePoint, positionOf } from '../../src-shared/geo';
import { timestampToEpochMs } from '../../src-shared/time';
import { CITIES } from '../../src-service/cities';
import { ServiceStore } from '../../src-service/store';

const cityByName = new Map(CITIES.map((c) => [c[0], c]));

describe('reference service: demo data', () => {
  it('generates 100,000 realistic customers', () => {
    const store = new ServiceStore();
    const started = performance.now();
    const cpu = process.cpuUsage();
    store.addAccount({ username: 'big', password: 'x', customers: 100_000, seed: 9 });
    const { user, system } = process.cpuUsage(cpu);
    // Reported, never asserted: speed belongs in the bench. CPU time ignores machine load.
    console.log(
      `demo data: 100,000 customers generated in ${Math.round(performance.now() - started)} ms ` +
        `(process CPU ${Math.round((user + system) / 1000)} ms)`,
    );
    const customers = store.customers('big');
    expect(customers).toHaveLength(100_000);
    expect(new Set(customers.map((c) => c.id)).size).toBe(100_000);
    const unmapped = customers.filter((c) => positionOf(c) === null).length / customers.length;
    expect(unmapped).toBeGreaterThan(0.03);
    expect(unmapped).toBeLessThan(0.07);
    const colors = new Set(customers.map((c) => c.color));
    expect([...colors].every((c) => (PALETTE as readonly string[]).includes(c))).toBe(true);
    expect(colors.size).toBe(PALETTE.length);
    expect(new Set(customers.map((c) => c.city)).size).toBe(CITIES.length);
    for (const c of customers.filter((_, i) => i % 97 === 0)) {
      v.parse(CustomerSchema, c);
      expect(c.id).toMatch(/^[A-Za-z0-9]{10}$/);
      expect(c.name).not.toBe('');
      expect(c.address).toMatch(/^\d+ \w/);
      const city = cityByName.get(c.city)!;
      expect([c.state, c.country]).toEqual([city[1], city[2]]);
      const position = positionOf(c);
      if (position) expect(haversineMeters(position, [city[4], city[3]])).toBeLessThan(80_000);
      if (c.numVisits > 0) expect(c.lastVisit).toBeGreaterThan(0);
      if ((c.remindAt ?? 0) > 0) expect(c.remindType).not.toBe('');
      expect(timestampToEpochMs(c.createdAt)).toBeLessThanOrEqual(timestampToEpochMs(c.updatedAt));
    }
    expect(customers.filter((c) => c.dealAmount !== null).length).toBeGreaterThan(50_000);
    expect(customers.filter((c) => c.groups.length > 0).length).toBeGreaterThan(50_000);
    expect(customers.filter((c) => c.custom0 !== '').length).toBe(100_000);
  });

  it('draws territories as closed polygons around metros and routes through real customers', () => {
    const store = new ServiceStore();
    store.addAccount({ username: 'a', password: 'x', customers: 2_000, seed: 3 });
    const territories = store.territories('a');
    expect(territories.length).toBeGreaterThanOrEqual(5);
    for (const t of territories) {
      expect(t.points.length).toBeGreaterThanOrEqual(8);
      expect(t.points[0]).toBe(t.points.at(-1));
      const city = cityByName.get(t.name.replace(/ metro$/, ''))!;
      for (const p of t.points) {
        expect(haversineMeters(parsePoint(p)!, [city[4], city[3]])).toBeLessThan(60_000);
      }
    }
    const positions = new Set(store.customers('a').map((c) => `${c.latitude},${c.longitude}`));
    const routes = store.routes('a');
    expect(routes.length).toBeGreaterThanOrEqual(2);
    for (const r of routes) for (const p of r.points) expect(positions.has(p)).toBe(true);
    const user = store.user('a')!;
    expect(user.groups.length).toBeGreaterThan(3);
    expect(user.numPins).toBe(2_000);
    expect(Object.values(store.customFields('a')).every(Number.isInteger)).toBe(true);
  });

  it('is deterministic for a seed and differs across seeds', () => {
    const make = (seed: number) => {
      const store = new ServiceStore(() => 1_760_000_000_000);
      store.addAccount({ username: 'a', password: 'x', customers: 300, seed });
      return { customers: store.customers('a'), territories: store.territories('a') };
    };
    expect(make(5)).toEqual(make(5));
    expect(make(5).customers[0]).not.toEqual(make(6).customers[0]);
  });
});
