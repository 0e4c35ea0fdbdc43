// Deterministic customers for the map tests and benchmark (runs in Node and in the page).
import { PALETTE, type Customer } from '../../../src-shared';
import type { CustomerView } from '../../../src-renderer/src/types';

/** mulberry32: a small seeded PRNG, so every run draws the same customers. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const STAMP = { date: '2026-01-01 00:00:00', timezone_type: 3, timezone: 'UTC' };

/** A complete customer record with the given fields; position follows latitude/longitude. */
export function customer(
  fields: Partial<Customer> & { id: string },
  pending = false,
): CustomerView {
  const base: Customer = {
    name: `Customer ${fields.id}`,
    company: '',
    address: '',
    city: '',
    state: '',
    zip: '',
    country: '',
    email: '',
    phone: '',
    color: 'blue',
    groups: [],
    dealAmount: null,
    notes: '',
    latitude: null,
    longitude: null,
    lastVisit: 0,
    numVisits: 0,
    remindAt: 0,
    remindType: '',
    custom0: '',
    custom1: '',
    custom2: '',
    custom3: '',
    custom4: '',
    custom5: '',
    custom6: '',
    custom7: '',
    custom8: '',
    custom9: '',
    createdAt: STAMP,
    updatedAt: STAMP,
    ...fields,
  };
  const { latitude: lat, longitude: lng } = base;
  const valid = typeof lat === 'number' && typeof lng === 'number' && !(lat === 0 && lng === 0);
  return { ...base, pending, position: valid ? [lng, lat] : null };
}

export type GenerateOptions = {
  /** Share of customers with null latitude/longitude. */
  unmappedNull?: number;
  /** Share of customers at 0,0 (the service's "zero" reading of unmapped). */
  unmappedZero?: number;
  /** [west, south, east, north] the mapped customers fall in; the continental US by default. */
  box?: [number, number, number, number];
};

/** n customers, seeded, spread over a box, with a share of unmapped ones. */
export function makeCustomers(
  n: number,
  seed: number,
  options: GenerateOptions = {},
): CustomerView[] {
  const rnd = seededRandom(seed);
  const [west, south, east, north] = options.box ?? [-124, 25, -67, 49];
  const nullShare = options.unmappedNull ?? 0;
  const zeroShare = options.unmappedZero ?? 0;
  const out: CustomerView[] = new Array<CustomerView>(n);
  for (let i = 0; i < n; i++) {
    const r = rnd();
    const id = `c${seed.toString(36)}x${i.toString(36).padStart(6, '0')}`;
    let latitude: number | null = south + rnd() * (north - south);
    let longitude: number | null = west + rnd() * (east - west);
    if (r < nullShare) latitude = longitude = null;
    else if (r < nullShare + zeroShare) latitude = longitude = 0;
    out[i] = customer(
      {
        id,
        name: `Customer ${i}`,
        company: `Company ${i % 997}`,
        color: PALETTE[i % PALETTE.length] as string,
        latitude,
        longitude,
      },
      i % 50 === 0,
    );
  }
  return out;
}
