// Random offline sessions for the chaos test, with the server state they must lead to,
// computed independently of the engine: apply the ops in order to plain records.
import {
  PALETTE,
  type Customer,
  type CustomerChanges,
  type CustomerFields,
} from '../../src-shared/domain';
import type { NewOp } from '../../src-shared/outbox-types';
import { normaliseFields } from '../../src-main/core/sync/merge';
import { newFields, tempId } from '../support/main';
import { mulberry32 } from '../support/prng';

interface ModelCustomer {
  ref: string;
  fields: CustomerFields;
  /** Position never changes and the customer is never deleted: routes may go through it. */
  fixed: boolean;
}

export interface Session {
  ops: NewOp[];
  /** Normalised writable fields of every customer the server must end with, as sorted JSON. */
  expectedCustomers: string[];
  /** Ids of pre-existing customers that must be gone. */
  deletedIds: string[];
  expectedRoutes: Array<{ name: string; points: number[][] }>;
  expectedCustomFields: Record<string, number>;
  /** Creates the service must refuse (invalid color): they end in needs-attention. */
  rejectedTargets: string[];
}

export function generateSession(seed: number, existing: Customer[], count: number): Session {
  const rnd = mulberry32(seed);
  const pick = <T>(xs: T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const live = new Map<string, ModelCustomer>();
  for (const c of existing) {
    const fields = normaliseFields(c);
    live.set(c.id, { ref: c.id, fields, fixed: fields.latitude !== null && rnd() < 0.5 });
  }
  const bases = new Map(existing.map((c) => [c.id, c]));
  const ops: NewOp[] = [];
  const routes: Session['expectedRoutes'] = [];
  const customFields: Record<string, number> = {};
  const deletedIds: string[] = [];
  const rejectedTargets: string[] = [];
  const createdPayloads: CustomerFields[] = [];
  let n = 0;

  while (ops.length < count) {
    n++;
    const r = rnd();
    const all = [...live.values()];
    if (r < 0.28) {
      const twin = createdPayloads.length > 0 && rnd() < 0.15;
      const mapped = rnd() < 0.7;
      const fields = twin
        ? structuredClone(pick(createdPayloads))
        : newFields(`Chaos ${seed}-${n}`, {
            city: `City ${n % 7}`,
            dealAmount: rnd() < 0.5 ? null : Math.round(rnd() * 1e4) / 100,
            groups: rnd() < 0.3 ? ['vip'] : [],
            latitude: mapped ? Math.round((rnd() * 120 - 60) * 1e4) / 1e4 : null,
            longitude: mapped ? Math.round((rnd() * 300 - 150) * 1e4) / 1e4 : null,
          });
      createdPayloads.push(fields);
      const ref = tempId(seed * 10_000 + n);
      ops.push({
        kind: 'createCustomer',
        target: ref,
        payload: structuredClone(fields),
        base: null,
      });
      const fixed = fields.latitude !== null && rnd() < 0.5;
      live.set(ref, { ref, fields: normaliseFields(fields), fixed });
    } else if (r < 0.31) {
      const ref = tempId(seed * 10_000 + n);
      ops.push({
        kind: 'createCustomer',
        target: ref,
        payload: newFields(`Rejected ${n}`, { color: 'chartreuse' }),
        base: null,
      });
      rejectedTargets.push(ref);
    } else if (r < 0.7 && all.length > 0) {
      const c = pick(all);
      const changes: CustomerChanges = {};
      const k = rnd();
      if (k < 0.25) changes.city = `Moved ${n}`;
      else if (k < 0.45) changes.notes = `note ${n}`;
      else if (k < 0.6) changes.dealAmount = Math.round(rnd() * 1e5) / 100;
      else if (k < 0.7) changes.color = pick(PALETTE.filter((p) => p !== c.fields.color));
      else if (k < 0.8) changes.numVisits = c.fields.numVisits + 1;
      else if (k < 0.9 && !c.fixed) {
        changes.latitude = Math.round((rnd() * 120 - 60) * 1e4) / 1e4;
        changes.longitude = Math.round((rnd() * 300 - 150) * 1e4) / 1e4;
      } else changes.groups = [...c.fields.groups, `g${n}`];
      const base = bases.get(c.ref) ?? null;
      ops.push({
        kind: 'updateCustomer',
        target: c.ref,
        payload: changes,
        base: base ? structuredClone(base) : null,
      });
      c.fields = normaliseFields({ ...c.fields, ...changes });
    } else if (r < 0.8) {
      const candidates = all.filter((c) => !c.fixed);
      if (candidates.length === 0) continue;
      const c = pick(candidates);
      const base = bases.get(c.ref) ?? null;
      ops.push({
        kind: 'deleteCustomer',
        target: c.ref,
        payload: null,
        base: base ? structuredClone(base) : null,
      });
      live.delete(c.ref);
      if (!c.ref.startsWith('tmp_')) deletedIds.push(c.ref);
    } else if (r < 0.93) {
      const stops = all.filter((c) => c.fixed);
      if (stops.length === 0) continue;
      const size = 1 + Math.floor(rnd() * 3);
      const chosen = Array.from({ length: size }, () => pick(stops));
      const name = `Route ${seed}-${n}`;
      ops.push({
        kind: 'createRoute',
        target: tempId(seed * 10_000 + n),
        payload: { routeName: name, customerIds: chosen.map((c) => c.ref) },
        base: null,
      });
      routes.push({ name, points: chosen.map((c) => [c.fields.latitude!, c.fields.longitude!]) });
    } else {
      const key = `goal${Math.floor(rnd() * 4)}`;
      const value = Math.floor(rnd() * 100);
      ops.push({
        kind: 'updateCustomFields',
        target: 'user',
        payload: { [key]: value },
        base: null,
      });
      customFields[key] = value;
    }
  }
  return {
    ops,
    expectedCustomers: [...live.values()].map((c) => JSON.stringify(c.fields)).sort(),
    deletedIds,
    expectedRoutes: routes,
    expectedCustomFields: customFields,
    rejectedTargets,
  };
}
