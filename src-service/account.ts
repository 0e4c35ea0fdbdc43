// The state of one account and how each record is emitted on the wire under the variants.
import { PALETTE, type Customer, type Route, type UserMeta } from '../src-shared/domain';
import { isValidPosition } from '../src-shared/geo';
import type { StoredCustomer } from './customers';
import { hashPassword } from './password';
import { emitDecimal } from './normalise';
import { formatTimestamp } from './timestamps';
import type { Variants } from './types';
import { withWrittenForms } from './written-forms';

export interface StoredPointList {
  id: string;
  name: string;
  points: string[];
  createdAtMs: number;
  updatedAtMs: number;
}

export interface Account {
  username: string;
  /** Salted scrypt hash; the password itself is never stored. */
  passwordHash: string;
  name: string;
  phone: string;
  colors: string[];
  groups: string[];
  hiddenGroups: string[];
  requiredGroups: string[];
  createdAtMs: number;
  updatedAtMs: number;
  customers: Map<string, StoredCustomer>;
  routes: StoredPointList[];
  territories: StoredPointList[];
  customFields: Record<string, number>;
}

/** An account with no data yet. */
export function emptyAccount(username: string, password: string, now: number): Account {
  return {
    username,
    passwordHash: hashPassword(password),
    name: username,
    phone: '',
    colors: [...PALETTE],
    groups: [],
    hiddenGroups: [],
    requiredGroups: [],
    createdAtMs: now,
    updatedAtMs: now,
    customers: new Map(),
    routes: [],
    territories: [],
    customFields: {},
  };
}

/** The customer as the API emits it now. */
export function emitCustomer(c: StoredCustomer, variants: Variants): Customer {
  const emitted = emitOwnForm(c, variants);
  return variants.writtenForm === 'kept' ? withWrittenForms(c, emitted) : emitted;
}

function emitOwnForm(c: StoredCustomer, variants: Variants): Customer {
  const mapped = isValidPosition(c.latitude, c.longitude);
  const unset = variants.unmapped === 'zero' ? 0 : null;
  const { createdAtMs, updatedAtMs, ...fields } = c;
  return {
    ...fields,
    groups: [...c.groups],
    dealAmount:
      c.dealAmount === null
        ? null
        : variants.store === 'normalising'
          ? emitDecimal(c.dealAmount)
          : variants.dealAmount === 'number'
            ? c.dealAmount
            : String(c.dealAmount),
    latitude: mapped ? c.latitude : unset,
    longitude: mapped ? c.longitude : unset,
    createdAt: formatTimestamp(createdAtMs, variants),
    updatedAt: formatTimestamp(updatedAtMs, variants),
  };
}

/** A route or territory as the API emits it. */
export function emitPointList(r: StoredPointList, variants: Variants): Route {
  return {
    id: r.id,
    name: r.name,
    points: [...r.points],
    createdAt: formatTimestamp(r.createdAtMs, variants),
    updatedAt: formatTimestamp(r.updatedAtMs, variants),
  };
}

/** The user metadata with the account's custom fields as the extra field `customFields`. */
export function emitUser(
  a: Account,
  variants: Variants,
): UserMeta & { customFields: Record<string, number> } {
  return {
    username: a.username,
    name: a.name,
    phone: a.phone,
    numPins: a.customers.size,
    colors: [...a.colors],
    numGroups: a.groups.length,
    groups: [...a.groups],
    hiddenGroups: [...a.hiddenGroups],
    requiredGroups: [...a.requiredGroups],
    createdAt: formatTimestamp(a.createdAtMs, variants),
    updatedAt: formatTimestamp(a.updatedAtMs, variants),
    customFields: { ...a.customFields },
  };
}
