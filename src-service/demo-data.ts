// Seeded generator of realistic demo accounts: customers in real metro areas, territories as
// polygons around some of them, and a few routes. Same seed, same data.
import { PALETTE } from '../src-shared/domain';
import type { Account, StoredPointList } from './account';
import { CITIES, type City } from './cities';
import type { StoredCustomer } from './customers';
import { newId } from './ids';
import * as W from './names';
import { Random } from './prng';

const DAY_MS = 86_400_000;
const UNMAPPED_SHARE = 0.05;
// Most reps use a handful of colors a lot and the rest rarely.
const COLOR_WEIGHTS = PALETTE.map((_, i) => (i < 10 ? 6 - (i % 5) : 1));

function weightedPicker<T>(items: readonly T[], weights: readonly number[]): (r: Random) => T {
  const cumulative: number[] = [];
  let total = 0;
  for (const w of weights) cumulative.push((total += w));
  return (r) => {
    const x = r.next() * total;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cumulative[mid] as number) > x) hi = mid;
      else lo = mid + 1;
    }
    return items[lo] as T;
  };
}

const pickCity = weightedPicker(
  CITIES,
  CITIES.map((c) => c[7]),
);
const pickColor = weightedPicker(PALETTE, COLOR_WEIGHTS);
const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;

function postalCode(r: Random, city: City): string {
  if (city[2] === 'Canada')
    return `${city[5]} ${r.int(1, 9)}${String.fromCharCode(65 + r.int(0, 25))}${r.int(1, 9)}`;
  return `${city[5]}${String(r.int(0, 99)).padStart(2, '0')}`;
}

function companyName(r: Random): string {
  const lead = r.chance(0.35) ? r.pick(W.LAST_NAMES) : r.pick(W.COMPANY_WORDS);
  return `${lead} ${r.pick(W.COMPANY_KINDS)} ${r.pick(W.COMPANY_SUFFIXES)}`.trim();
}

// Companies repeat a lot; deriving each one's e-mail domain once keeps 100k generations quick.
const domains = new Map<string, string>();
function emailDomain(company: string): string {
  let domain = domains.get(company);
  if (domain === undefined) {
    domain = company.toLowerCase().replace(/[^a-z]/g, '');
    domains.set(company, domain);
  }
  return domain;
}

function customer(r: Random, id: string, now: number): StoredCustomer {
  const city = pickCity(r);
  const first = r.pick(W.FIRST_NAMES);
  const last = r.pick(W.LAST_NAMES);
  const company = r.chance(0.8) ? companyName(r) : '';
  const mapped = !r.chance(UNMAPPED_SHARE);
  const latSpread = 0.08 * r.gauss();
  const lonSpread = (0.08 * r.gauss()) / Math.cos((city[3] * Math.PI) / 180);
  const lastVisitMs = r.chance(0.7) ? now - r.int(1, 180) * DAY_MS - r.int(0, DAY_MS) : 0;
  const reminder = r.chance(0.2);
  const createdAtMs = now - r.int(30, 3 * 365) * DAY_MS - r.int(0, DAY_MS);
  const domain = emailDomain(company || `${last}mail`);
  const groups: string[] = [];
  for (let g = r.int(0, 2); g > 0; g--) {
    const group = r.pick(W.GROUPS);
    if (!groups.includes(group)) groups.push(group);
  }
  return {
    id,
    name: company && r.chance(0.5) ? company : `${first} ${last}`,
    company,
    address: `${r.int(1, 9899)} ${r.pick(W.STREET_NAMES)} ${r.pick(W.STREET_SUFFIXES)}`,
    city: city[0],
    state: city[1],
    zip: postalCode(r, city),
    country: city[2],
    email: r.chance(0.7) ? `${first}.${last}@${domain}.com`.toLowerCase() : '',
    phone: r.chance(0.8) ? `(${city[6]}) 555-${String(r.int(100, 9999)).padStart(4, '0')}` : '',
    color: pickColor(r),
    groups,
    dealAmount: r.chance(0.6) ? Math.round(Math.exp(r.next() * 6 + 6)) * 5 : null,
    notes: r.pick(W.NOTES),
    latitude: mapped ? round(city[3] + latSpread, 6) : null,
    longitude: mapped ? round(city[4] + lonSpread, 6) : null,
    lastVisit: Math.floor(lastVisitMs / 1000),
    numVisits: lastVisitMs ? r.int(1, 40) : 0,
    remindAt: reminder ? Math.floor((now + r.int(1, 30) * DAY_MS) / 1000) : 0,
    remindType: reminder ? r.pick(W.REMIND_TYPES) : '',
    custom0: r.pick(W.TIERS),
    custom1: r.pick(W.INDUSTRIES),
    custom2: r.chance(0.3) ? `PO-${r.int(10000, 99999)}` : '',
    custom3: '',
    custom4: '',
    custom5: '',
    custom6: '',
    custom7: '',
    custom8: '',
    custom9: '',
    createdAtMs,
    updatedAtMs: Math.min(now, createdAtMs + r.int(0, 400) * DAY_MS),
  };
}

/** A closed ring of "<lat>,<lon>" points around a metro area. */
function metroPolygon(r: Random, city: City): string[] {
  const vertices = r.int(7, 12);
  const ring: string[] = [];
  const lonScale = 1 / Math.cos((city[3] * Math.PI) / 180);
  for (let i = 0; i < vertices; i++) {
    const angle = (2 * Math.PI * i) / vertices;
    const radius = 0.18 + r.next() * 0.12;
    const lat = round(city[3] + radius * Math.sin(angle), 5);
    const lon = round(city[4] + radius * Math.cos(angle) * lonScale, 5);
    ring.push(`${lat},${lon}`);
  }
  ring.push(ring[0] as string);
  return ring;
}

/** Fills a fresh account with `count` customers, territories, routes and user metadata. */
export function generateAccountData(
  account: Account,
  count: number,
  seed: number,
  now: number,
): void {
  const r = Random.seeded(seed);
  const rep = `${r.pick(W.FIRST_NAMES)} ${r.pick(W.LAST_NAMES)}`;
  account.name = rep;
  account.phone = `(312) 555-${String(r.int(100, 9999)).padStart(4, '0')}`;
  account.groups = [...W.GROUPS];
  account.hiddenGroups = ['Dormant'];
  account.requiredGroups = [];
  account.customFields = { 'Visit goal per week': 20, 'Quarterly quota': 150_000 };
  account.createdAtMs = now - 4 * 365 * DAY_MS;
  account.updatedAtMs = now - 10 * DAY_MS;

  const mappedByCity = new Map<string, StoredCustomer[]>();
  for (let i = 0; i < count; i++) {
    let id = newId(r.next);
    while (account.customers.has(id)) id = newId(r.next);
    const c = customer(r, id, now);
    account.customers.set(id, c);
    if (c.latitude !== null) {
      const list = mappedByCity.get(c.city) ?? [];
      if (list.length < 50) list.push(c);
      mappedByCity.set(c.city, list);
    }
  }

  const stamp = (daysAgo: number) => now - daysAgo * DAY_MS;
  const metros = [...CITIES].sort((a, b) => b[7] - a[7]).slice(0, 8);
  account.territories = metros.map((city, i): StoredPointList => ({
    id: newId(r.next),
    name: `${city[0]} metro`,
    points: metroPolygon(r, city),
    createdAtMs: stamp(300 - i),
    updatedAtMs: stamp(100 - i),
  }));

  const routeCities = [...mappedByCity.entries()]
    .filter(([, list]) => list.length >= 4)
    .slice(0, 3);
  account.routes = routeCities.map(([cityName, list], i): StoredPointList => {
    const stops = list.slice(0, r.int(4, Math.min(8, list.length)));
    return {
      id: newId(r.next),
      name: `${cityName} ${['Monday', 'Tuesday', 'Thursday'][i]} loop`,
      points: stops.map((c) => `${c.latitude},${c.longitude}`),
      createdAtMs: stamp(20 + i),
      updatedAtMs: stamp(20 + i),
    };
  });
}
