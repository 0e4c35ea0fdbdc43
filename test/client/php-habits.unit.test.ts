// The client against the reference service playing a PHP application's habits (src-service/
// php-habits.ts): each answer is read by what its bytes are, not by its label or its status.
// docs/service-readings.md is the inventory these tests stand behind.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_PHP_HABITS,
  startService,
  type RunningService,
  type ServiceStore,
  type Variants,
} from '../../src-service/index';
import { isNoSuchRecord } from '../../src-main/core/service/errors';
import { emptyCustomerFields, type Customer, type CustomerFields } from '../../src-shared/domain';
import { matchesSearch } from '../../src-shared/search';
import { clientFor, errorOf, REP } from '../support/service';

let service: RunningService;
const EMPTY = { username: 'empty', password: 'nothing here yet' };

beforeAll(async () => {
  service = await startService({ rate: 0, accounts: [{ ...REP, customers: 30, seed: 9 }] });
  service.store.addAccount({ ...EMPTY, customers: 0 });
  const empty = (service.store as ServiceStore).account(EMPTY.username)!;
  empty.routes.length = 0;
  empty.territories.length = 0;
  // Text PHP escapes ("\/", "\u00eb") and Latin-1 can hold.
  service.store.createCustomerDirect(REP.username, {
    name: 'Zoë / Müller café',
    city: 'Besançon',
    groups: ['crème'],
  });
});
afterAll(() => service.stop());
afterEach(() => {
  service.configure({
    variants: { ...DEFAULT_PHP_HABITS, createMessage: 'with-id', rateLimited: 'retry-after' },
    faults: { errorRate: 0, resetAfterRate: 0 },
  });
});

const habit = (variants: Partial<Variants>) => service.configure({ variants });
const fields = (changes: Partial<CustomerFields>): CustomerFields => ({
  ...emptyCustomerFields(),
  ...changes,
});
/** dealAmount's type is the spec's open gap: compared by value (the sync engine canonicalises). */
const byValue = (c: Customer) => ({
  ...c,
  dealAmount: c.dealAmount === null || c.dealAmount === '' ? c.dealAmount : Number(c.dealAmount),
});

/** Every read endpoint gives exactly what the service holds. */
async function readsLikeTheStore(): Promise<void> {
  const client = clientFor(service.url);
  const { customFields: _fields, ...user } = service.store.user(REP.username)!;
  expect(await client.getUser()).toMatchObject(user);
  const held = service.store.customers(REP.username);
  expect((await client.listCustomers()).map(byValue)).toEqual(held.map(byValue));
  const zoe = held.find((c) => c.name.startsWith('Zoë'))!;
  expect(byValue(await client.getCustomer(zoe.id))).toEqual(byValue(zoe));
  const found = await client.searchCustomers('müller');
  expect(found.map(byValue)).toEqual(held.filter((c) => matchesSearch(c, 'müller')).map(byValue));
  expect(await client.listRoutes()).toEqual(service.store.routes(REP.username));
  expect(await client.listTerritories()).toEqual(service.store.territories(REP.username));
}

/** Every write endpoint is done, and the client says so. */
async function writesAreDone(name: string): Promise<void> {
  const client = clientFor(service.url);
  await client.createCustomer(fields({ name, latitude: 48.1, longitude: 11.5 }));
  const created = service.store.customers(REP.username).find((c) => c.name === name)!;
  await client.updateCustomer(
    created.id,
    fields({ name, city: 'Ulm', latitude: 48.1, longitude: 11.5 }),
  );
  expect(service.store.customer(REP.username, created.id)?.city).toBe('Ulm');
  await client.createRoute({ routeName: `${name} route`, customerIds: [created.id] });
  await client.updateCustomFields({ [name]: 3 });
  await client.deleteCustomer(created.id);
  expect(service.store.customer(REP.username, created.id)).toBeUndefined();
}

describe('the bytes of an answer', () => {
  it("JSON labelled text/html (PHP's default Content-Type) is read as JSON", async () => {
    habit({ contentType: 'php-default' });
    await readsLikeTheStore();
    await writesAreDone('Labelled Html');
  });

  it('a UTF-8 BOM before the JSON is dropped', async () => {
    habit({ bodyPrefix: 'bom' });
    await readsLikeTheStore();
    await writesAreDone('After A Bom');
  });

  it('a newline before the JSON (an included file) is whitespace', async () => {
    habit({ bodyPrefix: 'newline' });
    await readsLikeTheStore();
    await writesAreDone('After A Newline');
  });

  it('a PHP warning before the JSON is refused, naming the warning: nothing is read after it', async () => {
    habit({ bodyPrefix: 'php-warning', contentType: 'php-default' });
    const error = await errorOf(clientFor(service.url).listCustomers());
    expect(error.kind).toBe('BadResponse');
    expect(error.detail).toMatch(/PHP warning before its answer \("Undefined array key "sort"/);
    expect((await errorOf(clientFor(service.url).getUser())).kind).toBe('BadResponse');
  });

  it('JSON_PRETTY_PRINT with "\\/" and "\\u00eb" escapes is read as the same values', async () => {
    habit({ jsonStyle: 'php-pretty' });
    await readsLikeTheStore();
    await writesAreDone('Pretty Print');
  });

  it('UTF-8 bytes labelled ISO-8859-1 are read as UTF-8 (the bytes decide)', async () => {
    habit({ charset: 'utf-8-labelled-latin1' });
    await readsLikeTheStore();
  });

  it('ISO-8859-1 bytes labelled so are read as ISO-8859-1', async () => {
    habit({ charset: 'latin1' });
    await readsLikeTheStore();
    await writesAreDone('Latin One');
  });

  it('bytes that are not UTF-8, labelled UTF-8, are refused: never read with U+FFFD in them', async () => {
    habit({ charset: 'latin1-labelled-utf-8' });
    const client = clientFor(service.url);
    // One read at a time: a second read started early would reject unwatched.
    for (const read of [() => client.listCustomers(), () => client.searchCustomers('müller')]) {
      const error = await errorOf(read());
      expect(error.kind).toBe('BadResponse');
      expect(error.detail).toMatch(/not valid UTF-8 \(labelled charset=utf-8\)/);
    }
  });

  it('a body without Content-Length (chunked) is read whole', async () => {
    habit({ transfer: 'chunked' });
    await readsLikeTheStore();
    await writesAreDone('Chunked');
  });
});

describe('the shapes of values', () => {
  it('arrays as objects keyed "0", "2"… and empty ones as {} are read as lists', async () => {
    habit({ arrays: 'php-objects' });
    await readsLikeTheStore();
    const held = service.store.customers(REP.username).find((c) => c.name.startsWith('Zoë'))!;
    expect((await clientFor(service.url).getCustomer(held.id)).groups).toEqual(['crème']);
    // The empty account: every list is {}.
    const empty = clientFor(service.url, {
      username: EMPTY.username,
      getPassword: async () => EMPTY.password,
    });
    expect(await empty.listCustomers()).toEqual([]);
    expect(await empty.listRoutes()).toEqual([]);
    expect(await empty.listTerritories()).toEqual([]);
    const { customFields: _none, ...user } = service.store.user(EMPTY.username)!;
    expect(await empty.getUser()).toMatchObject(user);
  });

  it("numbers as strings (PDO's default) are read as numbers", async () => {
    habit({ numbers: 'strings' });
    await readsLikeTheStore();
  });

  it('empty text as null is read as ""', async () => {
    habit({ emptyText: 'null' });
    await readsLikeTheStore();
  });

  it('numeric ids (AUTO_INCREMENT) are read as the string ids of the spec', async () => {
    habit({ ids: 'numeric', createMessage: 'id-field' });
    const client = clientFor(service.url);
    const answer = await client.createCustomer(fields({ name: 'Numbered' }));
    const created = service.store.customers(REP.username).find((c) => c.name === 'Numbered')!;
    expect(created.id).toMatch(/^\d+$/);
    expect(answer).toMatchObject({ message: 'Object created', id: created.id });
    expect(await client.getCustomer(created.id)).toEqual(created);
    expect((await client.listCustomers()).find((c) => c.name === 'Numbered')).toEqual(created);
    await client.deleteCustomer(created.id);
  });

  it('a list that repeats a row (a JOIN) is read as sent: the sync keeps each id once', async () => {
    habit({ repeatedRow: 'first-again' });
    const held = service.store.customers(REP.username);
    const listed = await clientFor(service.url).listCustomers();
    // Not refused: the pull keys customers by id, the last copy winning (the cache does the same:
    // test/renderer/e2e-repeated-row.e2e.test.ts).
    expect(listed.map(byValue)).toEqual([...held, held[0]!].map(byValue));
  });
});

describe('statuses and answers that say nothing or say no', () => {
  it('writes answered 204 with no body are done', async () => {
    habit({ writeStatus: 'no-content' });
    const answer = await clientFor(service.url).updateCustomFields({ quiet: 1 });
    expect(answer.message).toBe('');
    await writesAreDone('No Content');
  });

  it('a refusal answered 200 with an error body is a failure, never a success', async () => {
    habit({ errors: '200' });
    const client = clientFor(service.url);
    const update = await errorOf(client.updateCustomer('noSuchId99', fields({ name: 'X' })));
    expect(update).toMatchObject({ kind: 'Rejected', status: 200 });
    expect(update.detail).toMatch(/not_found: No customer with id noSuchId99/);
    // A create's words cannot prove nothing was committed: its outcome is unknown.
    const create = await errorOf(client.createCustomer(fields({ name: 'C', color: 'chartreuse' })));
    expect(create).toMatchObject({ kind: 'Ambiguous', status: 200 });
    expect(create.detail).toMatch(/invalid_field/);
    const read = await errorOf(client.getCustomer('noSuchId99'));
    expect(read).toMatchObject({ kind: 'BadResponse', status: 200 });
    expect(read.detail).toMatch(/answered 200 with an error: not_found/);
  });

  it.each(['null', 'false', 'empty-array'] as const)(
    'a missing customer answered 200 with %s is "no such record"',
    async (missingCustomer) => {
      habit({ missingCustomer });
      const client = clientFor(service.url);
      const error = await client.getCustomer('noSuchId99').catch((e: unknown) => e);
      expect(isNoSuchRecord(error)).toBe(true);
      expect((error as { info: { detail: string } }).info.detail).toMatch(/noSuchId99/);
    },
  );

  it('a missing customer answered 200 with an empty body is refused: json_encode failing says the same', async () => {
    habit({ missingCustomer: 'empty-body' });
    const error = await clientFor(service.url)
      .getCustomer('noSuchId99')
      .catch((e: unknown) => e);
    expect(isNoSuchRecord(error)).toBe(false);
    expect((error as { info: { kind: string; detail: string } }).info).toMatchObject({
      kind: 'BadResponse',
      detail: 'empty response body',
    });
  });

  it.each(['array', 'object', 'null'] as const)(
    'a search without hits as %s is []',
    async (noHits) => {
      habit({ noHits });
      expect(await clientFor(service.url).searchCustomers('zzzz-no-such')).toEqual([]);
    },
  );

  it('a search without hits as false or 404 is refused: an import trusts "no hits"', async () => {
    habit({ noHits: 'false' });
    const client = clientFor(service.url);
    expect(await errorOf(client.searchCustomers('zzzz-no-such'))).toMatchObject({
      kind: 'BadResponse',
      detail: 'search answered false',
    });
    habit({ noHits: '404' });
    expect(await errorOf(client.searchCustomers('zzzz-no-such'))).toMatchObject({
      kind: 'Rejected',
      status: 404,
    });
  });

  it("a 500 with PHP's HTML fatal error is ServerError naming it; a GET is retried", async () => {
    habit({ serverError: 'php-html' });
    service.configure({ faults: { errorRate: 1 } });
    service.resetStats();
    const error = await errorOf(clientFor(service.url, { maxIdempotentRetries: 1 }).getUser());
    expect(error.kind).toBe('ServerError');
    expect(error.detail).toMatch(/^PHP Fatal error: Uncaught PDOException/);
    expect(service.stats().requests).toBe(2);
  });
});

describe('a read never words its failure as a change', () => {
  const WRITE_WORDS = /change|send|sending|sent|sav|writ/i;

  it('refused, cut off and pushed back reads say nothing was changed', async () => {
    const client = clientFor(service.url, { maxIdempotentRetries: 0, maxRetries: 0 });
    habit({ noHits: '404' });
    const refused = await errorOf(client.searchCustomers('zzzz-no-such'));
    expect(refused.message).toMatch(/Nothing was changed/);
    expect(refused.message.replace('Nothing was changed', '')).not.toMatch(WRITE_WORDS);
    service.configure({ faults: { resetAfterRate: 1 } });
    const cut = await errorOf(client.listRoutes());
    expect(cut.kind).toBe('Ambiguous');
    expect(cut.message.replace('Nothing was changed', '')).not.toMatch(WRITE_WORDS);
    service.configure({ faults: { resetAfterRate: 0 }, rate: 1 });
    try {
      const outcomes = await Promise.allSettled([client.getUser(), client.getUser()]);
      const pushed = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason] : []));
      expect(pushed.length).toBeGreaterThan(0);
      for (const e of pushed) expect(e.info.message).not.toMatch(WRITE_WORDS);
    } finally {
      service.configure({ rate: 0 });
    }
  });
});
