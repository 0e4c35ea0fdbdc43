// Dexie tells every page which keys a write changed ('storagemutated'), which is how the page's
// feed patches only those customers (customer-feed.svelte.ts). But its observation names the keys
// of a put only when it holds fewer than KEYED_PUT_LIMIT records: a larger put is reported as a
// change of the whole table, and the page read all 100k customers back, every view redoing all
// of its work for them. A bulk change's overlay (hundreds of customers), a delta's piece, a batch
// of acknowledged records were each such a put: the bulk's longest tasks at 100k came after one.
// This middleware sits above Dexie's own and hands each large put down in slices it names.
import type { DBCore, DBCoreMutateRequest, DBCoreMutateResponse, Middleware } from 'dexie';

/** Dexie's observability middleware names a put's keys below this many values. */
export const KEYED_PUT_LIMIT = 50;
const SLICE = KEYED_PUT_LIMIT - 1;

type PutRequest = Extract<DBCoreMutateRequest, { type: 'put' | 'add' }>;

function slices(req: PutRequest): PutRequest[] {
  const out: PutRequest[] = [];
  for (let at = 0; at < req.values.length; at += SLICE) {
    const part: PutRequest = { ...req, values: req.values.slice(at, at + SLICE) };
    if (req.keys) part.keys = req.keys.slice(at, at + SLICE);
    out.push(part);
  }
  return out;
}

/** One response for the slices of a put, as the whole put would have answered. */
function joined(responses: readonly DBCoreMutateResponse[]): DBCoreMutateResponse {
  const failures: Record<number, Error> = {};
  const results: unknown[] = [];
  let numFailures = 0;
  let lastResult: unknown;
  responses.forEach((res, i) => {
    for (const [at, error] of Object.entries(res.failures))
      failures[i * SLICE + Number(at)] = error;
    numFailures += res.numFailures;
    results.push(...(res.results ?? []));
    lastResult = res.lastResult;
  });
  return { numFailures, failures, results, lastResult };
}

export const keyedPuts: Middleware<DBCore> = {
  stack: 'dbcore',
  name: 'fieldmap:keyed-puts',
  // Above Dexie's own (levels up to 2): the observation sees each slice.
  level: 10,
  create(down) {
    return {
      ...down,
      table(name) {
        const table = down.table(name);
        return {
          ...table,
          mutate(req) {
            if ((req.type !== 'put' && req.type !== 'add') || req.values.length < KEYED_PUT_LIMIT)
              return table.mutate(req);
            // Issued together: IndexedDB runs a transaction's requests in order, never waiting
            // on the page between slices.
            return Promise.all(slices(req).map((part) => table.mutate(part))).then(joined);
          },
        };
      },
    };
  },
};
