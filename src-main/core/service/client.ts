// The Customer Mapping Service over HTTP: every call goes through the account's rate limiter,
// carries Basic auth built for that request only, and returns a validated body or throws a
// ServiceError of the taxonomy.
//
// Retries: 429/503 are retried for every method (the service refused the request before doing
// anything). Transport failures and 5xx are retried only for GETs. A write whose request may
// have left is never sent again here: it surfaces as Ambiguous and the sync engine reconciles.
import ky, { type KyInstance } from 'ky';
import * as v from 'valibot';
import {
  CustomerSchema,
  MessageResponseSchema,
  RouteSchema,
  TerritorySchema,
  UserMetaSchema,
  type CreateRouteBody,
  type Customer,
  type CustomerFields,
  type CustomFieldsBody,
  type MessageResponse,
  type Route,
  type Territory,
  type UserMeta,
} from '../../../src-shared/domain';
import { matchesSearch } from '../../../src-shared/search';
import {
  systemClock,
  type Clock,
  type ListReader,
  type RequestOptions,
  type ServiceApi,
} from '../ports';
import { RateLimiter } from './rate-limiter';
import {
  asReadFailure,
  httpStatusError,
  isServiceError,
  serviceError,
  ServiceError,
  transportError,
} from './errors';
import { phpCustomer, phpPointList, phpUser } from './php-shapes';
import { readBodyCapped, serviceMessageOf } from './responses';
import { backoffDelay, parseRetryAfter, type BackoffPolicy } from './retry';
import { absentCustomer, noHits, readAnswer, type Call, type Method } from './answers';

export interface BodyLimits {
  /** List endpoints (100k customers are ~60 MB). */
  list: number;
  /** One customer (30 fields of up to 100k chars each). */
  record: number;
  /** `{ message }` answers and error bodies. */
  message: number;
}

export const DEFAULT_BODY_LIMITS: BodyLimits = {
  list: 256 * 1024 * 1024,
  record: 16 * 1024 * 1024,
  message: 1024 * 1024,
};

export interface ServiceClientOptions {
  /** A base URL already checked by validateBaseUrl. */
  baseUrl: string;
  username: string;
  /** Reads the password (from the credential store) for each request; it is never kept. */
  getPassword: () => Promise<string>;
  limiter?: RateLimiter;
  clock?: Clock;
  /** Time allowed for the response headers, and for each pause while reading the body. */
  timeoutMs?: number;
  /** Retries of a request the service pushed back with 429/503 before RateLimited. */
  maxRetries?: number;
  /** Retries of a GET after Offline, Ambiguous or ServerError. */
  maxIdempotentRetries?: number;
  backoff?: Partial<BackoffPolicy>;
  bodyLimits?: Partial<BodyLimits>;
  fetch?: typeof fetch;
}

const CustomerListSchema = v.array(CustomerSchema);
const RouteListSchema = v.array(RouteSchema);
const TerritoryListSchema = v.array(TerritorySchema);

/** An id or search term as one path segment. '.' and '..' cannot be one (URLs resolve them). */
function pathSegment(value: string): string {
  if (/^\.{1,2}$/.test(value)) {
    throw serviceError('InvalidRequest', { detail: `"${value}" cannot be sent in a URL path` });
  }
  return encodeURIComponent(value);
}

export class ServiceClient implements ServiceApi {
  readonly baseUrl: string;
  readonly username: string;
  readonly limiter: RateLimiter;
  // ES private: not enumerable, not serialisable, not reachable from a log of the object.
  readonly #getPassword: () => Promise<string>;
  readonly #clock: Clock;
  readonly #ky: KyInstance;
  readonly #timeoutMs: number;
  readonly #maxRetries: number;
  readonly #maxIdempotentRetries: number;
  readonly #backoff: BackoffPolicy;
  readonly #limits: BodyLimits;

  constructor(options: ServiceClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    // Basic auth joins user and password with ':'; a ':' or line break in the name cannot travel.
    if (options.username === '' || /[:\r\n]/.test(options.username)) {
      throw serviceError('InvalidRequest', {
        message: 'A user name cannot be empty or contain ":".',
        detail: 'invalid user name',
      });
    }
    this.username = options.username;
    this.#getPassword = options.getPassword;
    this.#clock = options.clock ?? systemClock;
    this.limiter = options.limiter ?? new RateLimiter({ clock: this.#clock });
    this.#timeoutMs = options.timeoutMs ?? 30_000;
    this.#maxRetries = options.maxRetries ?? 10;
    this.#maxIdempotentRetries = options.maxIdempotentRetries ?? 2;
    this.#backoff = { baseMs: 500, capMs: 30_000, random: Math.random, ...options.backoff };
    this.#limits = { ...DEFAULT_BODY_LIMITS, ...options.bodyLimits };
    this.#ky = ky.create({
      prefixUrl: `${this.baseUrl}/api/v1`,
      retry: 0, // retries are ours: ky's would resend writes and ignore the shared limiter
      timeout: this.#timeoutMs,
      throwHttpErrors: false,
      // Never follow: a 307/308 would re-send a write, and another host's /user could make a
      // sign-in "succeed". A 3xx comes back as it is and becomes a BadResponse below.
      redirect: 'manual',
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
  }

  listCustomers(options?: RequestOptions): Promise<Customer[]> {
    return this.#read('customers', CustomerListSchema, this.#limits.list, options, phpCustomer);
  }

  /**
   * GET customers, its elements parsed and validated a slice at a time as they are asked for
   * (responses.ts ListReader): a first sync sends each slice on while the next is read.
   */
  readCustomers(options?: RequestOptions): Promise<ListReader<Customer>> {
    const call = {
      method: 'get' as const,
      path: 'customers',
      schema: CustomerListSchema,
      maxBytes: this.#limits.list,
      what: 'customers',
      reader: true,
      shape: phpCustomer,
    };
    return this.#call(call, options) as unknown as Promise<ListReader<Customer>>;
  }

  getCustomer(id: string, options?: RequestOptions): Promise<Customer> {
    const path = `customers/${pathSegment(id)}`;
    const call = { method: 'get' as const, path, schema: CustomerSchema, what: 'customer' };
    const absent = absentCustomer(id);
    return this.#call(
      { ...call, maxBytes: this.#limits.record, shape: phpCustomer, absent },
      options,
    );
  }

  async searchCustomers(term: string, options?: RequestOptions): Promise<Customer[]> {
    if (term.trim() === '') throw serviceError('InvalidRequest', { detail: 'empty search term' });
    // A URL path cannot carry "." or ".." as a segment: apply the service's rule to the list.
    if (/^\.{1,2}$/.test(term)) {
      return (await this.listCustomers(options)).filter((c) => matchesSearch(c, term));
    }
    const path = `customers/search/${pathSegment(term)}`;
    const call = { method: 'get' as const, path, schema: CustomerListSchema, what: 'search' };
    const shapes = { shape: phpCustomer, absent: noHits };
    return this.#call({ ...call, maxBytes: this.#limits.list, ...shapes }, options);
  }

  createCustomer(fields: CustomerFields, options?: RequestOptions): Promise<MessageResponse> {
    return this.#write('post', 'customers', fields, options);
  }

  updateCustomer(
    id: string,
    fields: CustomerFields,
    options?: RequestOptions,
  ): Promise<MessageResponse> {
    return this.#write('put', `customers/${pathSegment(id)}`, fields, options);
  }

  deleteCustomer(id: string, options?: RequestOptions): Promise<MessageResponse> {
    return this.#write('delete', `customers/${pathSegment(id)}`, undefined, options);
  }

  listRoutes(options?: RequestOptions): Promise<Route[]> {
    return this.#read('routes', RouteListSchema, this.#limits.list, options, phpPointList);
  }

  createRoute(body: CreateRouteBody, options?: RequestOptions): Promise<MessageResponse> {
    return this.#write('post', 'routes', body, options);
  }

  listTerritories(options?: RequestOptions): Promise<Territory[]> {
    return this.#read('territories', TerritoryListSchema, this.#limits.list, options, phpPointList);
  }

  getUser(options?: RequestOptions): Promise<UserMeta> {
    return this.#read('user', UserMetaSchema, this.#limits.record, options, phpUser);
  }

  updateCustomFields(body: CustomFieldsBody, options?: RequestOptions): Promise<MessageResponse> {
    return this.#write('put', 'user/customfields', body, options);
  }

  #read<S extends v.GenericSchema>(
    path: string,
    schema: S,
    maxBytes: number,
    options: RequestOptions | undefined,
    shape: (raw: unknown) => unknown,
  ): Promise<v.InferOutput<S>> {
    return this.#call({ method: 'get', path, schema, maxBytes, what: path, shape }, options);
  }

  #write(
    method: Method,
    path: string,
    json: unknown,
    options?: RequestOptions,
  ): Promise<MessageResponse> {
    const call = {
      method,
      path,
      json,
      schema: MessageResponseSchema,
      maxBytes: this.#limits.message,
      what: 'message',
    };
    return this.#call(call, options);
  }

  /** One logical call; a read's failure is worded as a read's (it changed nothing). */
  async #call<S extends v.GenericSchema>(
    call: Call<S>,
    options: RequestOptions = {},
  ): Promise<v.InferOutput<S>> {
    try {
      return await this.#calls(call, options);
    } catch (e) {
      throw call.method === 'get' ? asReadFailure(e) : e;
    }
  }

  /** One logical call: waits for the limiter, retries what may be retried, validates. */
  async #calls<S extends v.GenericSchema>(
    call: Call<S>,
    options: RequestOptions,
  ): Promise<v.InferOutput<S>> {
    const idempotent = call.method === 'get';
    let pushedBack = 0;
    let transient = 0;
    for (;;) {
      const retry = pushedBack > 0 || transient > 0;
      let outcome: Attempt<v.InferOutput<S>>;
      try {
        outcome = await this.#attempt(call, options, retry);
      } catch (e) {
        const kind = isServiceError(e) ? e.info.kind : undefined;
        const retriable = kind === 'Offline' || kind === 'Ambiguous' || kind === 'ServerError';
        if (!idempotent || !retriable || transient >= this.#maxIdempotentRetries) throw e;
        await this.#clock.sleep(backoffDelay(transient, this.#backoff), options.signal);
        transient++;
        continue;
      }
      if (outcome.ok) return outcome.value;
      if (pushedBack >= this.#maxRetries) throw outcome.error;
      // Hold every request of the account back, not just this one, so the queue stops hammering.
      this.limiter.pauseFor(outcome.retryAfterMs ?? backoffDelay(pushedBack, this.#backoff));
      pushedBack++;
    }
  }

  /** One HTTP exchange. A 429/503 is returned (to be retried); other failures are thrown. */
  async #attempt<S extends v.GenericSchema>(
    call: Call<S>,
    options: RequestOptions,
    retry: boolean,
  ): Promise<Attempt<v.InferOutput<S>>> {
    const authorization = await this.#authorization();
    const permit = await this.limiter.acquire({
      priority: options.priority ?? 'user',
      ...(options.signal ? { signal: options.signal } : {}),
      retry,
    });
    // Our own controller lets a stalled body read be aborted; ky's timeout covers the headers.
    const stall = new AbortController();
    const signal = options.signal ? AbortSignal.any([options.signal, stall.signal]) : stall.signal;
    let response: Response;
    try {
      response = await this.#ky(call.path, {
        method: call.method,
        headers: { authorization, accept: 'application/json' },
        ...(call.json === undefined ? {} : { json: call.json }),
        signal,
      });
    } catch (e) {
      throw this.#failureBeforeResponse(e, call, options);
    } finally {
      permit.release();
    }
    const status = response.status;
    if (status === 429 || status === 503) {
      await response.body?.cancel().catch(() => undefined);
      const retryAfter = parseRetryAfter(response.headers.get('retry-after'), this.#clock.now());
      return { ok: false, error: httpStatusError(status, undefined), retryAfterMs: retryAfter };
    }
    if (
      (status >= 300 && status < 400) ||
      response.redirected ||
      response.type === 'opaqueredirect'
    ) {
      await response.body?.cancel().catch(() => undefined);
      throw serviceError('BadResponse', {
        status,
        detail: `the service answered with a redirect (${status}); redirects are not followed`,
      });
    }
    const success = status >= 200 && status < 300;
    let bytes: Uint8Array;
    try {
      bytes = await this.#readBody(response, success ? call.maxBytes : this.#limits.message, stall);
    } catch (e) {
      if (isServiceError(e)) throw e;
      if (options.signal?.aborted && call.method === 'get') throw options.signal.reason;
      // The request arrived (there is a status) but its answer was cut off.
      if (!success) throw httpStatusError(status, 'the response was cut off');
      throw serviceError('Ambiguous', { status, detail: 'the response was cut off' });
    }
    const contentType = response.headers.get('content-type');
    if (!success) throw httpStatusError(status, serviceMessageOf(bytes));
    return { ok: true, value: await readAnswer(call, status, bytes, contentType) };
  }

  async #authorization(): Promise<string> {
    let password: string;
    try {
      password = await this.#getPassword();
    } catch (e) {
      if (e instanceof ServiceError) throw e;
      throw serviceError('NotSignedIn', { detail: 'no password available' });
    }
    if (!password) throw serviceError('NotSignedIn', { detail: 'no password available' });
    return `Basic ${Buffer.from(`${this.username}:${password}`, 'utf8').toString('base64')}`;
  }

  #failureBeforeResponse(
    e: unknown,
    call: Call<v.GenericSchema>,
    options: RequestOptions,
  ): unknown {
    if (options.signal?.aborted) {
      // A cancelled GET changed nothing; a cancelled write may already have been received.
      if (call.method === 'get') return options.signal.reason;
      return serviceError('Ambiguous', { detail: 'cancelled while the request was being sent' });
    }
    if (e instanceof Error && e.name === 'TimeoutError') {
      return serviceError('Ambiguous', {
        detail: `no answer within ${Math.round(this.#timeoutMs / 1000)} s`,
      });
    }
    return transportError(e);
  }

  /** Reads the body, aborting when no byte arrives for a whole timeout (a dead connection). */
  async #readBody(
    response: Response,
    maxBytes: number,
    stall: AbortController,
  ): Promise<Uint8Array> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => stall.abort(new Error('response body stalled')), this.#timeoutMs);
    };
    arm();
    try {
      return await readBodyCapped(response, maxBytes, arm);
    } finally {
      clearTimeout(timer);
    }
  }
}

type Attempt<T> =
  { ok: true; value: T } | { ok: false; error: ServiceError; retryAfterMs: number | undefined };
