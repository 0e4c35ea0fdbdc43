// Reading a response body safely: capped in size, stalled reads aborted, JSON parsed and
// validated with the src-shared schemas. Anything else is a BadResponse naming what was wrong.
import * as v from 'valibot';
import type { ListReader } from '../ports';
import { serviceError, type ServiceError } from './errors';
import { arrayLayoutInSlices, looksLikeArray, parseGroup, type ArrayLayout } from './json-slices';

/** Reads the whole body, refusing more than `maxBytes` (checked before and while reading). */
export async function readBodyCapped(
  response: Response,
  maxBytes: number,
  onProgress?: () => void,
): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw oversize(maxBytes);
  }
  if (!response.body) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    onProgress?.();
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw oversize(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total);
}

function oversize(maxBytes: number): ServiceError {
  return serviceError('BadResponse', {
    detail: `response larger than ${Math.round(maxBytes / 1024)} KiB`,
  });
}

/** The body as text; an HTML page or an empty body is BadResponse. */
function bodyText(bytes: Uint8Array, contentType: string | null): string {
  return checkedText(
    Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'),
    contentType,
  );
}

/** Lets whatever else waits on main's event loop (IPC, timers, I/O) run. */
const pause = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Bytes decoded before main's event loop is let go (~10-15 ms of work here). */
export const TEXT_SLICE = 4 * 1024 * 1024;

/**
 * `bodyText` decoded TEXT_SLICE bytes at a time, main's event loop let go between: one decode of
 * a 100k list (76 MB) was a ~0.27 s task of main. The same text as Buffer's decode: UTF-8 with
 * U+FFFD for a bad sequence, a sequence cut between slices carried over, a byte order mark kept
 * (JSON refuses it).
 */
async function bodyTextInSlices(bytes: Uint8Array, contentType: string | null): Promise<string> {
  if (bytes.byteLength <= TEXT_SLICE) return bodyText(bytes, contentType);
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  const parts: string[] = [];
  for (let at = 0; at < bytes.byteLength; at += TEXT_SLICE) {
    const end = Math.min(at + TEXT_SLICE, bytes.byteLength);
    parts.push(decoder.decode(bytes.subarray(at, end), { stream: end < bytes.byteLength }));
    await pause();
  }
  return checkedText(parts.join(''), contentType);
}

function checkedText(text: string, contentType: string | null): string {
  const start = text.trimStart().slice(0, 1);
  if (/html/i.test(contentType ?? '') || start === '<') {
    throw serviceError('BadResponse', { detail: 'received an HTML page instead of JSON' });
  }
  if (text.trim() === '') throw serviceError('BadResponse', { detail: 'empty response body' });
  return text;
}

function notJson(e: unknown): ServiceError {
  const reason = e instanceof Error ? e.message : 'parse error';
  return serviceError('BadResponse', { detail: `response is not valid JSON (${reason})` });
}

/** Parses a JSON body; HTML pages, truncated and malformed JSON are BadResponse. */
export function parseJsonBody(bytes: Uint8Array, contentType: string | null): unknown {
  const text = bodyText(bytes, contentType);
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw notJson(e);
  }
}

/**
 * `[3].createdAt.date` style path of a valibot issue; '' for the root. `offset`: added to the
 * first index (an issue of a slice of a list, named by its place in the whole list).
 */
export function issuePath(issue: v.BaseIssue<unknown>, offset = 0): string {
  let out = '';
  for (const [n, item] of (issue.path ?? []).entries()) {
    const key = item.key;
    if (typeof key === 'number') out += `[${n === 0 ? key + offset : key}]`;
    else if (typeof key === 'string') out += out === '' ? key : `.${key}`;
    else out += '[?]';
  }
  return out;
}

/** Validates parsed JSON; the first failing field is named in `field`. */
export function validateBody<S extends v.GenericSchema>(
  schema: S,
  data: unknown,
  what: string,
  offset = 0,
): v.InferOutput<S> {
  const result = v.safeParse(schema, data, { abortEarly: true });
  if (result.success) return result.output;
  const issue = result.issues[0];
  const field = issue ? issuePath(issue, offset) : '';
  const received = issue?.received ? ` (got ${issue.received.slice(0, 80)})` : '';
  return throwBad(field, `${what}: ${field || 'body'}: ${issue?.message ?? 'invalid'}${received}`);
}

/** Elements of a list body parsed and validated together before main's event loop is let go. */
export const LIST_SLICE = 2_000;

/**
 * A ListReader of a list body; an HTML page, broken JSON or a body that is no array throw. The
 * body is decoded and its layout scanned in slices too, main's event loop let go between them.
 */
export async function listReader<S extends v.ArraySchema<v.GenericSchema, undefined>>(
  schema: S,
  bytes: Uint8Array,
  contentType: string | null,
  what: string,
): Promise<ListReader<v.InferOutput<S['item']>>> {
  const text = await bodyTextInSlices(bytes, contentType);
  // Not an array: read whole, so it fails validation as before.
  if (!looksLikeArray(text)) validateBody(schema, parseJsonBody(bytes, contentType), what);
  let layout: ArrayLayout;
  try {
    layout = await arrayLayoutInSlices(text, LIST_SLICE, pause);
  } catch (e) {
    throw notJson(e);
  }
  return {
    count: layout.count,
    async *slices() {
      let offset = 0;
      for (const group of layout.groups) {
        let items: unknown[];
        try {
          items = parseGroup(text, group);
        } catch (e) {
          throw notJson(e);
        }
        yield validateBody(schema, items, what, offset) as v.InferOutput<S['item']>[];
        offset += group.length;
        await pause();
      }
    },
  };
}

/**
 * A list body parsed and validated in slices, yielding main's event loop between slices: the
 * same answer and the same errors as parseJsonBody + validateBody of the whole list.
 */
export async function decodeListBody<S extends v.ArraySchema<v.GenericSchema, undefined>>(
  schema: S,
  bytes: Uint8Array,
  contentType: string | null,
  what: string,
): Promise<v.InferOutput<S>> {
  const out: unknown[] = [];
  for await (const slice of (await listReader(schema, bytes, contentType, what)).slices())
    for (const item of slice) out.push(item);
  return out as v.InferOutput<S>;
}

function throwBad(field: string, detail: string): never {
  throw serviceError('BadResponse', { field: field || '(body)', detail: detail.slice(0, 500) });
}

/** The service's own text from an error body ({ message } JSON or plain text), short. */
export function serviceMessageOf(
  bytes: Uint8Array,
  contentType: string | null,
): string | undefined {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    .toString('utf8')
    .trim();
  if (text === '') return undefined;
  if (/html/i.test(contentType ?? '') || text.startsWith('<')) {
    const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1]?.trim();
    return title ? title.slice(0, 300) : 'HTML page';
  }
  try {
    const body = JSON.parse(text) as unknown;
    if (body && typeof body === 'object') {
      const { message, error, fields, ids } = body as Record<string, unknown>;
      const parts = [
        typeof message === 'string' ? message : typeof error === 'string' ? error : '',
      ];
      if (Array.isArray(fields) && fields.length) parts.push(`fields: ${fields.join(', ')}`);
      if (Array.isArray(ids) && ids.length) parts.push(`ids: ${ids.join(', ')}`);
      const joined = parts.filter(Boolean).join('; ');
      if (joined) return joined.slice(0, 1000);
    }
  } catch {
    // not JSON: fall back to the text itself
  }
  return text.slice(0, 300);
}
