// The eleven endpoints: what each does with an authenticated account and a parsed body.
import { matchesSearch } from '../src-shared/search';
import { emitCustomer, emitPointList, emitUser, type Account } from './account';
import { parseCustomerBody } from './customers';
import { HttpError, badField } from './http-error';
import { NO_BODY } from './php-habits';
import type { ServiceStore } from './store';
import type { Variants } from './types';
import { keepWrittenForms } from './written-forms';

export interface EndpointContext {
  account: Account;
  store: ServiceStore;
  variants: Variants;
  /** The decoded path parameter (object id or search term), when the path has one. */
  param: string;
  body: unknown;
}

export interface EndpointResult {
  status: number;
  body: unknown;
}

export type Endpoint = (ctx: EndpointContext) => EndpointResult;

const ok = (body: unknown, status = 200): EndpointResult => ({ status, body });

function notFound(id: string): HttpError {
  return new HttpError(404, 'not_found', `No customer with id ${id}.`);
}

function createdAnswer(kind: string, id: string, variants: Variants): Record<string, string> {
  switch (variants.createMessage) {
    case 'with-id':
      return { message: `${kind} object created with id ${id}` };
    case 'short-with-id':
      return { message: `${kind} created with id ${id}` };
    case 'id-field':
      return { message: 'Object created', id };
    case 'without-id':
      return { message: 'Object created' };
  }
}

/** GET of an unknown id as a PHP app may answer it: echo json_encode($row) of no row. */
function missingCustomer(id: string, variants: Variants): EndpointResult {
  switch (variants.missingCustomer) {
    case '404':
      throw notFound(id);
    case 'null':
      return ok(null);
    case 'false':
      return ok(false);
    case 'empty-array':
      return ok([]);
    case 'empty-body':
      return ok(NO_BODY);
  }
}

/** A search without hits, in each form a PHP app may give it. */
function noHits(variants: Variants): EndpointResult {
  switch (variants.noHits) {
    case 'array':
      return ok([]);
    case 'object':
      return ok({});
    case 'null':
      return ok(null);
    case 'false':
      return ok(false);
    case '404':
      throw new HttpError(404, 'not_found', 'No customers found.');
  }
}

export const listCustomers: Endpoint = ({ account, variants }) => {
  const list = [...account.customers.values()];
  if (variants.repeatedRow === 'first-again' && list[0]) list.push(list[0]);
  return ok(list.map((c) => emitCustomer(c, variants)));
};

export const getCustomer: Endpoint = ({ account, variants, param }) => {
  const c = account.customers.get(param);
  if (!c) return missingCustomer(param, variants);
  return ok(emitCustomer(c, variants));
};

export const searchCustomers: Endpoint = ({ account, variants, param }) => {
  if (param.trim() === '') {
    throw new HttpError(400, 'invalid_search', 'The search term must not be empty.');
  }
  const hits = [...account.customers.values()].filter((c) => matchesSearch(c, param));
  if (hits.length === 0) return noHits(variants);
  return ok(hits.map((c) => emitCustomer(c, variants)));
};

export const createCustomer: Endpoint = ({ account, store, variants, body }) => {
  const fields = parseCustomerBody(body, { requireName: true, colors: account.colors });
  const created = store.createCustomer(account, fields);
  keepWrittenForms(created, body, 'replace');
  return ok(createdAnswer('Customer', created.id, variants), 201);
};

export const updateCustomer: Endpoint = ({ account, store, variants, param, body }) => {
  if (!account.customers.has(param)) throw notFound(param);
  const replace = variants.put === 'replace';
  const fields = parseCustomerBody(body, { requireName: replace, colors: account.colors });
  const updated = store.updateCustomer(account, param, fields, variants.put);
  if (updated) keepWrittenForms(updated, body, variants.put);
  return ok({ message: `Customer ${param} was successfully updated` });
};

export const deleteCustomer: Endpoint = ({ account, store, param }) => {
  if (!store.deleteCustomer(account, param)) throw notFound(param);
  return ok({ message: `Customer ${param} was deleted` });
};

export const listRoutes: Endpoint = ({ account, variants }) =>
  ok(account.routes.map((r) => emitPointList(r, variants)));

export const createRoute: Endpoint = ({ account, store, variants, body }) => {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new HttpError(
      400,
      'invalid_body',
      'The body must be an object with routeName and customerIds.',
    );
  }
  const record = body as Record<string, unknown>;
  const unknown = Object.keys(record).filter((k) => k !== 'routeName' && k !== 'customerIds');
  if (unknown.length > 0) {
    throw new HttpError(400, 'unknown_fields', `Unknown fields: ${unknown.join(', ')}.`, {
      fields: unknown,
    });
  }
  const { routeName, customerIds } = record;
  if (typeof routeName !== 'string' || routeName.trim() === '' || routeName.length > 1000) {
    throw badField('routeName', 'must be a non-empty string');
  }
  if (
    !Array.isArray(customerIds) ||
    customerIds.length === 0 ||
    customerIds.length > 10_000 ||
    !customerIds.every((id) => typeof id === 'string' && id !== '')
  ) {
    throw badField('customerIds', 'must be a non-empty array of customer ids');
  }
  const route = store.createRoute(account, routeName, customerIds as string[]);
  return ok(createdAnswer('Route', route.id, variants), 201);
};

export const listTerritories: Endpoint = ({ account, variants }) =>
  ok(account.territories.map((t) => emitPointList(t, variants)));

export const getUser: Endpoint = ({ account, variants }) => ok(emitUser(account, variants));

// "__proto__" would silently vanish when merged into a plain object; refuse it by name.
const isFieldName = (k: string) => k.trim() !== '' && k.length <= 200 && k !== '__proto__';

export const updateCustomFields: Endpoint = ({ account, store, body }) => {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new HttpError(
      400,
      'invalid_body',
      'The body must be a flat object of names to integers.',
    );
  }
  const entries = Object.entries(body as Record<string, unknown>);
  if (entries.length === 0) {
    throw new HttpError(400, 'invalid_body', 'At least one custom field is required.');
  }
  const bad = entries
    .filter(([k, v]) => !isFieldName(k) || !Number.isSafeInteger(v))
    .map(([k]) => k);
  if (bad.length > 0) {
    throw new HttpError(
      400,
      'invalid_field',
      `Custom fields take integer values: ${bad.join(', ')}.`,
      {
        fields: bad,
      },
    );
  }
  store.mergeCustomFields(account, Object.fromEntries(entries) as Record<string, number>);
  return ok({ message: 'Custom fields were successfully updated' });
};
