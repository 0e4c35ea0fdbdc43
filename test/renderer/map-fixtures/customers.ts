// Deterministic customers for the map tests and benchmark (runs in Node and in the page).
import { emptyCustomerFields, PALETTE, positionOf, type Customer } from '../../../src-shared';
import type { CustomerView } from '../../../src-renderer/src/types';
import { mulberry32 } from '../../support/prng';

/** The createdAt/updatedAt of every fixture customer. */
export const STAMP = { date: '2026-01-01 00:00:00', timezone_type: 3, timezone: 'UTC' };

/** A complete customer record with the given fields; position follows latitude/longitude. */
export function customer(
  fields: Partial<Customer> & { id: string },
  pending = false,
): CustomerView {
  const base: Customer = {
    ...emptyCustomerFields(),
    name: `Customer ${fields.id}`,
    createdAt: STAMP,
    updatedAt: STAMP,
    ...fields,
  };
  // The app's own rule decides what is mapped (never drawn at 0,0 or out of range).
  return { ...base, pending, position: positionOf(base) };
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
  const rnd = mulberry32(seed);
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
