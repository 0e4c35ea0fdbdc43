// Seeded, realistic-enough customers for the renderer tests and the bench (runs in the
// browser and in Node: no imports but src-shared types).
import type { Customer, Route, Territory, Timestamp, UserMeta } from '../../../src-shared';
import { PALETTE } from '../../../src-shared';
import { mulberry32 } from '../../support/prng';

const FIRST = [
  'Anna',
  'Ben',
  'Clara',
  'David',
  'Émile',
  'Fatima',
  'Georg',
  'Hana',
  'Ivan',
  'Jürgen',
  'Kofi',
  'Lena',
  'Mateo',
  'Nora',
  'Olaf',
  'Priya',
];
const LAST = [
  'Schmidt',
  'Okafor',
  'García',
  'Nguyen',
  'Müller',
  'Smith',
  'Rossi',
  'Kowalski',
  'Tanaka',
  'Dubois',
  'Larsen',
  'Silva',
];
const COMPANY = [
  'Acme',
  'Globex',
  'Initech',
  'Umbrella',
  'Stark',
  'Wayne',
  'Hooli',
  'Vandelay',
  'Soylent',
  'Tyrell',
];
const SUFFIX = ['GmbH', 'Inc', 'Ltd', 'AG', 'SARL', 'BV', '& Co'];
const STREET = [
  'Main St',
  'Hauptstraße',
  'Rue de la Paix',
  'Oak Ave',
  'Calle Mayor',
  'High Street',
  'Ringweg',
];
const CITY: Array<[string, string, string, number, number]> = [
  ['Berlin', 'BE', 'Germany', 52.52, 13.405],
  ['Munich', 'BY', 'Germany', 48.137, 11.575],
  ['Paris', 'IDF', 'France', 48.857, 2.352],
  ['Austin', 'TX', 'United States', 30.267, -97.743],
  ['Denver', 'CO', 'United States', 39.739, -104.99],
  ['Madrid', 'MD', 'Spain', 40.417, -3.704],
  ['Leeds', 'ENG', 'United Kingdom', 53.8, -1.549],
  ['Kraków', 'MA', 'Poland', 50.065, 19.945],
];
const GROUPS = ['Key account', 'Prospect', 'Partner', 'Retail', 'Wholesale', 'North', 'South'];

export function timestamp(ms: number): Timestamp {
  const iso = new Date(ms).toISOString();
  return { date: `${iso.slice(0, 10)} ${iso.slice(11, 19)}`, timezone_type: 3, timezone: 'UTC' };
}

const pick = <T>(r: () => number, list: readonly T[]): T => list[Math.floor(r() * list.length)]!;

/** `n` customers with ids `c<i>` (10% unmapped), deterministic for a seed. */
export function makeCustomers(n: number, seed = 1, prefix = ''): Customer[] {
  const r = mulberry32(seed);
  const out: Customer[] = new Array(n);
  const stamp = timestamp(Date.UTC(2024, 0, 1));
  for (let i = 0; i < n; i++) {
    const [city, state, country, lat, lng] = pick(r, CITY);
    const mapped = r() > 0.1;
    const groups = GROUPS.filter(() => r() < 0.2);
    out[i] = {
      id: `c${i}`,
      name: `${prefix}${pick(r, FIRST)} ${pick(r, LAST)} ${i}`,
      company: `${pick(r, COMPANY)} ${pick(r, SUFFIX)}`,
      address: `${1 + Math.floor(r() * 300)} ${pick(r, STREET)}`,
      city,
      state,
      zip: String(10000 + Math.floor(r() * 89999)),
      country,
      email: `c${i}@example.com`,
      phone: `+1 555 ${String(i).padStart(6, '0')}`,
      color: pick(r, PALETTE),
      groups,
      dealAmount: r() < 0.5 ? Math.round(r() * 100000) / 100 : null,
      notes: r() < 0.2 ? 'Prefers morning visits.\nCall ahead.' : '',
      latitude: mapped ? lat + (r() - 0.5) * 0.5 : null,
      longitude: mapped ? lng + (r() - 0.5) * 0.5 : null,
      lastVisit: r() < 0.7 ? 1_700_000_000 + Math.floor(r() * 30_000_000) : 0,
      numVisits: Math.floor(r() * 40),
      remindAt: 0,
      remindType: '',
      custom0: r() < 0.3 ? 'VIP' : '',
      custom1: '',
      custom2: '',
      custom3: '',
      custom4: '',
      custom5: '',
      custom6: '',
      custom7: '',
      custom8: '',
      custom9: '',
      createdAt: stamp,
      updatedAt: stamp,
    };
  }
  return out;
}

export function makeUser(): UserMeta {
  const stamp = timestamp(Date.UTC(2024, 0, 1));
  return {
    username: 'demo',
    name: 'Demo Rep',
    phone: '',
    numPins: 0,
    colors: [...PALETTE],
    numGroups: GROUPS.length,
    groups: [...GROUPS],
    hiddenGroups: [],
    requiredGroups: [],
    createdAt: stamp,
    updatedAt: stamp,
  };
}

export function makePlaces(kind: 'route' | 'territory', n: number): Array<Route | Territory> {
  const stamp = timestamp(Date.UTC(2024, 0, 1));
  return Array.from({ length: n }, (_, i) => ({
    id: `${kind[0]}${i}`,
    name: `${kind === 'route' ? 'Route' : 'Territory'} ${i}`,
    points: ['52.5,13.4', '52.6,13.5', '52.4,13.6'],
    createdAt: stamp,
    updatedAt: stamp,
  }));
}

/** Random search terms: substrings of real field values in random case, plus some misses. */
export function makeTerms(customers: Customer[], n: number, seed: number): string[] {
  const r = mulberry32(seed);
  const fields = [
    'name',
    'company',
    'address',
    'city',
    'state',
    'zip',
    'country',
    'email',
  ] as const;
  const terms: string[] = [];
  while (terms.length < n) {
    if (r() < 0.1) {
      terms.push(`zq${Math.floor(r() * 1000)}x`);
      continue;
    }
    const value = String(pick(r, customers)[pick(r, fields)]);
    if (value.length === 0) continue;
    const start = Math.floor(r() * value.length);
    const len = 1 + Math.floor(r() * Math.min(6, value.length - start));
    const slice = value.slice(start, start + len);
    terms.push(r() < 0.5 ? slice.toUpperCase() : slice);
  }
  return terms;
}

/**
 * Resolves once `check()` holds, looking every 25 ms; throws naming `what` after `boundMs`, so a
 * condition that never comes fails the test with the step it stuck on instead of its timeout.
 * The bound is generous: a starved machine makes a test slower, never wrong.
 */
export async function eventually(
  check: () => boolean,
  what: string | (() => string) = 'a condition',
  boundMs = 240_000,
): Promise<void> {
  const start = performance.now();
  while (!check()) {
    if (performance.now() - start > boundMs) {
      throw new Error(`still waiting for ${typeof what === 'string' ? what : what()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
