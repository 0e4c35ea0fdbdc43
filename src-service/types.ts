// Public option and handle types of the reference service (re-exported by index.ts).
import type { Customer, Route, Territory, UserMeta } from '../src-shared/domain';

/** One reading of each gap the spec leaves open. */
export interface Variants extends PhpHabits {
  /**
   * The create answer's message: `<Kind> object created with id <id>`, `Object created`,
   * `<Kind> created with id <id>`, or `Object created` with the id beside it in an `id` field.
   */
  createMessage: 'with-id' | 'without-id' | 'short-with-id' | 'id-field';
  put: 'patch' | 'replace';
  /** 429 with Retry-After in seconds, 429 with it as an HTTP date, 429 without it, or 503. */
  rateLimited: 'retry-after' | 'retry-after-date' | 'no-retry-after' | '503';
  forbiddenBody: 'json' | 'html';
  timezoneType: 1 | 2 | 3;
  unmapped: 'null' | 'zero';
  dealAmount: 'number' | 'string';
  /** Zone designator of the timestamps ('default': +00:00, Z or America/Chicago by type). */
  timezone: string;
  /** PHP's DateTime JSON carries microseconds: "2026-11-23 02:47:23.417000". */
  timestampFraction: 'none' | 'micro';
  /**
   * 'kept': dealAmount, latitude and longitude come back in the exact JSON form last written
   * (a schemaless backend storing what it got); records never written show the service's own
   * form (the dealAmount and unmapped variants). 'parsed': always the service's own form.
   */
  writtenForm: 'parsed' | 'kept';
  /**
   * How values are stored: as sent, or in the service's own form as a PHP/MySQL backend does
   * (whitespace trimmed and collapsed, state upper-cased, e-mail lower-cased, text HTML-escaped
   * and cut to VARCHAR(255), coordinates rounded to 5 decimals, dealAmount as "1234.50").
   */
  store: 'as-sent' | 'normalising';
}

/**
 * Habits of a PHP service the spec does not rule out (php-habits.ts emits them). The first choice
 * of each is the default, the service as the spec reads.
 */
export interface PhpHabits {
  /** Content-Type of every JSON body: application/json, or PHP's default text/html. */
  contentType: 'json' | 'php-default';
  /** Bytes before the JSON: a UTF-8 BOM, a newline (an included file's), a PHP warning in HTML. */
  bodyPrefix: 'none' | 'bom' | 'newline' | 'php-warning';
  /** json_encode's defaults with JSON_PRETTY_PRINT: 4-space indent, "\/" and "\u00e9" escapes. */
  jsonStyle: 'compact' | 'php-pretty';
  /** Bytes and label: UTF-8 labelled ISO-8859-1, ISO-8859-1 bytes labelled so, or mislabelled. */
  charset: 'utf-8' | 'utf-8-labelled-latin1' | 'latin1' | 'latin1-labelled-utf-8';
  /** Content-Length, or none (chunked, as PHP's output buffering flushes). */
  transfer: 'length' | 'chunked';
  /** Every array as a JSON object with integer keys and holes (array_filter), empty ones as {}. */
  arrays: 'list' | 'php-objects';
  /** Every number as a string (PDO's default), ints included. */
  numbers: 'typed' | 'strings';
  /** Empty text as null. */
  emptyText: 'string' | 'null';
  /** New records get sequential numeric ids, and an all-digit id is a JSON number. */
  ids: 'text' | 'numeric';
  /** The endpoints' refusals (400, 404, 405, 413, 415) answered with status 200, same body. */
  errors: 'status' | '200';
  /** Writes that succeed answer 204 with an empty body. */
  writeStatus: 'spec' | 'no-content';
  /** GET of an unknown customer id: 404, or 200 with null, false, [] or nothing. */
  missingCustomer: '404' | 'null' | 'false' | 'empty-array' | 'empty-body';
  /** A search without hits: [], {}, null, false or 404. */
  noHits: 'array' | 'object' | 'null' | 'false' | '404';
  /** Body of a 500/502: JSON, or PHP's HTML fatal error. */
  serverError: 'json' | 'php-html';
  /**
   * The customers list repeats a row, as a JOIN with two matching rows does: 'first-again' lists
   * the first customer a second time, at the end (the same record: one customer, two entries).
   */
  repeatedRow: 'none' | 'first-again';
}

export const DEFAULT_PHP_HABITS: PhpHabits = {
  contentType: 'json',
  bodyPrefix: 'none',
  jsonStyle: 'compact',
  charset: 'utf-8',
  transfer: 'length',
  arrays: 'list',
  numbers: 'typed',
  emptyText: 'string',
  ids: 'text',
  errors: 'status',
  writeStatus: 'spec',
  missingCustomer: '404',
  noHits: 'array',
  serverError: 'json',
  repeatedRow: 'none',
};

export const DEFAULT_VARIANTS: Variants = {
  ...DEFAULT_PHP_HABITS,
  createMessage: 'with-id',
  put: 'patch',
  rateLimited: 'retry-after',
  forbiddenBody: 'json',
  timezoneType: 3,
  unmapped: 'null',
  dealAmount: 'number',
  timezone: 'default',
  timestampFraction: 'none',
  writtenForm: 'parsed',
  store: 'as-sent',
};

/** Injected faults; rates are probabilities in 0..1 drawn from a seeded PRNG. */
export interface Faults {
  seed: number;
  latencyMs: number;
  jitterMs: number;
  /** Share of requests answered 500 or 502 without being applied. */
  errorRate: number;
  /** Share of requests whose socket is destroyed before the change is applied. */
  resetBeforeRate: number;
  /** Share of requests applied (committed), then the socket destroyed with no response. */
  resetAfterRate: number;
  /** Share of requests applied (committed), then answered 502 (a gateway lost the answer). */
  errorAfterCommitRate: number;
  /**
   * A 3xx status (301, 302, 303, 307, 308) every authenticated request is answered with, before
   * anything is applied, pointing at `redirectTo` + the request's path; 0: never.
   */
  redirectStatus: number;
  /** Origin the redirect points at (e.g. another service on another loopback host or port). */
  redirectTo: string;
}

export const DEFAULT_FAULTS: Faults = {
  seed: 1,
  latencyMs: 0,
  jitterMs: 0,
  errorRate: 0,
  resetBeforeRate: 0,
  resetAfterRate: 0,
  errorAfterCommitRate: 0,
  redirectStatus: 0,
  redirectTo: '',
};

export interface AccountSpec {
  username: string;
  password: string;
  /** Generated demo customers (default 500). */
  customers?: number;
  seed?: number;
}

export interface ServiceOptions {
  host?: string;
  port?: number;
  accounts?: AccountSpec[];
  seed?: number;
  /** Requests per second per account over a sliding 1 s window; 0 disables the limit. */
  rate?: number;
  /** The rate limit's clock (default the system's): tests move it instead of waiting. */
  clock?: { now(): number };
  /** IPs or CIDRs allowed to call; default loopback only. */
  allow?: string[];
  tls?: boolean | { cert: string; key: string };
  dataFile?: string;
  variants?: Partial<Variants>;
  faults?: Partial<Faults>;
  /** Reuse the state of a stopped service (restart on the same data). */
  store?: ServiceStoreApi;
}

export interface ServiceStats {
  requests: number;
  rateLimited: number;
  /** Password hashes checked (sign-ins a throttle refused are not). */
  passwordChecks: number;
}

/** Where a gate holds a request: before the endpoint applies it, or after (answer held). */
export type GateAt = 'before-commit' | 'after-commit';

/** A held request: tests release it when they choose, so no test waits on wall-clock time. */
export interface RequestGate {
  /** Resolves when the first matching request is being held. */
  readonly arrived: Promise<void>;
  /** Lets every held (and later) matching request through, and removes the gate. */
  release(): void;
}

export interface RunningService {
  /** e.g. http://127.0.0.1:41234 (no trailing slash). */
  url: string;
  port: number;
  store: ServiceStoreApi;
  /** PEM certificate the service presents when TLS is on (to trust it in tests). */
  cert?: string;
  configure(p: {
    variants?: Partial<Variants>;
    faults?: Partial<Faults>;
    allow?: string[];
    rate?: number;
  }): void;
  /**
   * Holds requests of this method whose path matches until the gate is released: before the
   * endpoint applies them (default), or after, with their answer held.
   */
  hold(method: string, path: RegExp, at?: GateAt): RequestGate;
  stats(): ServiceStats;
  /** POST /customers requests that reached the endpoint, counted by the body's name. */
  customerPosts(): Record<string, number>;
  /** PUT /customers/{id} requests that reached the endpoint, counted by id (tests count resends). */
  customerPuts(): Record<string, number>;
  resetStats(): void;
  stop(): Promise<void>;
}

/** Direct state access for tests and demo mode. */
export interface ServiceStoreApi {
  customers(username: string): Customer[];
  customer(username: string, id: string): Customer | undefined;
  routes(username: string): Route[];
  territories(username: string): Territory[];
  user(username: string): (UserMeta & { customFields: Record<string, number> }) | undefined;
  customFields(username: string): Record<string, number>;
  updateCustomerDirect(username: string, id: string, changes: Record<string, unknown>): Customer;
  createCustomerDirect(username: string, fields: Record<string, unknown>): Customer;
  addAccount(spec: AccountSpec): void;
  /** Changes an account's password, as if changed on the service: old credentials get 401. */
  setPassword(username: string, password: string): void;
}
