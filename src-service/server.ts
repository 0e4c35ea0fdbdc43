// The request pipeline: allow-list, Basic auth, rate limit, routing, body, faults, endpoint.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AllowList } from './allow-list';
import { signIn } from './auth';
import { HttpError } from './http-error';
import { NO_BODY, phpShapes, sendAnswer, sendFatal } from './php-habits';
import type { FailedSignInThrottle, SlidingWindowLimiter } from './rate-limit';
import { route } from './router';
import type { ServiceStore } from './store';
import type { AfterCommit, HookAnswer, TestHooks } from './test-hooks';
import type { ServiceStats, Variants } from './types';

export const MAX_BODY_BYTES = 1024 * 1024;

const NO_HOOK: AfterCommit = () => Promise.resolve(false);

export interface PipelineState {
  store: ServiceStore;
  variants: Variants;
  allow: AllowList;
  limiter: SlidingWindowLimiter;
  /** Failed sign-ins per client IP: refused before hashing past the limit. */
  signIns: FailedSignInThrottle;
  /** Tests' injected faults and held requests; null in the product's demo. */
  hooks: TestHooks | null;
  stats: ServiceStats;
  /** POST /customers bodies that reached the endpoint, by name (tests count resends). */
  customerPosts: Record<string, number>;
  /** PUT /customers/{id} requests that reached the endpoint, by id. */
  customerPuts: Record<string, number>;
}

const FORBIDDEN_HTML =
  '<!DOCTYPE html>\n<html><head><title>403 Forbidden</title></head><body>' +
  '<h1>Forbidden</h1><p>Your IP address is not on the allow-list of this service. ' +
  'Contact support to be added.</p></body></html>\n';

function send(
  res: ServerResponse,
  variants: Variants,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  sendAnswer(res, variants, status, body, headers);
}

function sendError(res: ServerResponse, variants: Variants, err: HttpError): void {
  // A PHP app that never sets a status answers its refusals with 200 (auth is the server's).
  const status = variants.errors === '200' ? 200 : err.status;
  send(res, variants, status, err.body(), err.extra.headers);
}

/** A 500/502 the service answers on its own (a fault, an unexpected error). */
function sendServerError(res: ServerResponse, variants: Variants, status: number, body: unknown) {
  if (variants.serverError === 'php-html') sendFatal(res, variants, status);
  else send(res, variants, status, body);
}

function forbidden(res: ServerResponse, variants: Variants): void {
  if (variants.forbiddenBody === 'html') {
    res.writeHead(403, {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Length': Buffer.byteLength(FORBIDDEN_HTML),
    });
    res.end(FORBIDDEN_HTML);
    return;
  }
  send(res, variants, 403, {
    error: 'forbidden',
    message: 'Your IP address is not on the allow-list of this service.',
  });
}

function rateLimited(res: ServerResponse, variants: Variants, retryAfterMs: number): void {
  if (variants.rateLimited === '503') {
    send(res, variants, 503, {
      error: 'service_unavailable',
      message: 'Too many requests; try again later.',
    });
    return;
  }
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  const headers: Record<string, string> =
    variants.rateLimited === 'retry-after'
      ? { 'Retry-After': String(seconds) }
      : variants.rateLimited === 'retry-after-date'
        ? // An HTTP date has whole seconds: one more, so it never falls before the slot frees.
          { 'Retry-After': new Date(Date.now() + (seconds + 1) * 1000).toUTCString() }
        : {};
  send(res, variants, 429, { error: 'rate_limited', message: 'Too many requests.' }, headers);
}

function isJsonContentType(header: string | undefined): boolean {
  const type = header?.split(';')[0]?.trim().toLowerCase();
  return type === 'application/json';
}

const tooLarge = () =>
  new HttpError(413, 'payload_too_large', `The body is larger than ${MAX_BODY_BYTES} bytes.`, {
    // The rest of the body is not read: the connection closes after the answer.
    headers: { Connection: 'close' },
  });

/**
 * Reads the body up to MAX_BODY_BYTES; rejects with 413 as soon as it is known to be larger (a
 * Content-Length over the limit, or the bytes passing it), without reading the rest, and with
 * 400 for malformed JSON.
 */
function readJson(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    if (Number(req.headers['content-length']) > MAX_BODY_BYTES) {
      reject(tooLarge());
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) {
        chunks.push(chunk);
        return;
      }
      req.off('data', onData);
      chunks.length = 0;
      reject(tooLarge());
    };
    req.on('data', onData);
    req.on('error', reject);
    req.on('end', () => {
      if (size > MAX_BODY_BYTES) return;
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown);
      } catch {
        reject(new HttpError(400, 'malformed_json', 'The body is not valid JSON.'));
      }
    });
  });
}

/** Counts a customer POST that reached the endpoint, by the name in its body. */
function countPost(state: PipelineState, body: unknown): void {
  const name = (body as { name?: unknown } | null)?.name;
  const key = typeof name === 'string' ? name : '';
  state.customerPosts[key] = (state.customerPosts[key] ?? 0) + 1;
}

/** Handles one request end to end. */
export async function handleRequest(
  state: PipelineState,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  state.stats.requests++;
  const { store, variants } = state;
  if (!state.allow.allows(req.socket.remoteAddress)) return forbidden(res, variants);

  const ip = req.socket.remoteAddress ?? '';
  const signedIn = await signIn(store, state.signIns, ip, req.headers.authorization, state.stats);
  if (!signedIn.ok && signedIn.status === 429) {
    const seconds = Math.max(1, Math.ceil(signedIn.retryAfterMs / 1000));
    return send(
      res,
      variants,
      429,
      { error: 'too_many_sign_ins', message: 'Too many failed sign-ins; try again later.' },
      { 'Retry-After': String(seconds) },
    );
  }
  if (!signedIn.ok) {
    return send(
      res,
      variants,
      401,
      { error: 'unauthorized', message: 'Missing or wrong credentials.' },
      { 'WWW-Authenticate': 'Basic realm="Customer Mapping Service", charset="UTF-8"' },
    );
  }

  const account = signedIn.account;
  const admission = state.limiter.admit(account.username);
  if (!admission.ok) {
    state.stats.rateLimited++;
    return rateLimited(res, variants, admission.retryAfterMs);
  }

  try {
    const path = (req.url ?? '/').split('?')[0] as string;
    const match = route(req.method ?? 'GET', path);
    let body: unknown = undefined;
    if (match.hasBody) {
      if (!isJsonContentType(req.headers['content-type'])) {
        throw new HttpError(
          415,
          'unsupported_media_type',
          'Send the body as Content-Type: application/json.',
        );
      }
      body = await readJson(req);
    }

    const hookAnswer: HookAnswer = {
      send: (status, content, headers) => send(res, variants, status, content, headers),
      serverError: (status, content) => sendServerError(res, variants, status, content),
    };
    const afterCommit = state.hooks ? await state.hooks.before(req, path, hookAnswer) : NO_HOOK;
    if (!afterCommit) return;
    if (req.method === 'POST' && path === '/api/v1/customers') countPost(state, body);
    const put = req.method === 'PUT' ? /^\/api\/v1\/customers\/([^/]+)$/.exec(path) : null;
    if (put) state.customerPuts[put[1]!] = (state.customerPuts[put[1]!] ?? 0) + 1;
    const result = match.endpoint({ account, store, variants, param: match.param, body });
    if (await afterCommit()) return;
    const write = req.method !== 'GET' && result.status < 300;
    if (write && variants.writeStatus === 'no-content') return send(res, variants, 204, NO_BODY);
    const answer = result.body === NO_BODY ? NO_BODY : phpShapes(result.body, variants);
    send(res, variants, result.status, answer);
  } catch (err) {
    if (!(err instanceof HttpError)) throw err;
    sendError(res, variants, err);
  }
}

/** Wraps handleRequest so an unexpected error becomes a 500, never a crash. */
export function requestListener(state: PipelineState) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    handleRequest(state, req, res).catch((err: unknown) => {
      console.error('reference service: unexpected error', err);
      if (!res.headersSent) {
        sendServerError(res, state.variants, 500, {
          error: 'server_error',
          message: 'Internal error.',
        });
      } else res.destroy();
    });
  };
}
