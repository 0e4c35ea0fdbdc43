// Reading a response body safely: capped in size, stalled reads aborted, JSON parsed and
// validated with the src-shared schemas. Anything else is a BadResponse naming what was wrong.
import * as v from 'valibot';
import type { ListReader } from '../ports';
import { serviceError, type ServiceError } from './errors';
import { isUtf8 } from 'node:buffer';
import {
  arrayLayoutInSlices,
  firstNonSpace,
  looksLikeArray,
  groupSpan,
  parseSpanInPlace,
  type ArrayLayout,
} from './json-slices';
import { checkedText, decodeBody, notUtf8, phpMessageOf } from './php-readings';
import { phpList } from './php-shapes';

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
  // With a declared length each piece is copied into place as it arrives, so a large body costs
  // main many small copies, not one copy of every byte at the end. A body that outgrows it (a
  // Content-Length of the encoded bytes, then unpacked) goes on as pieces, as without one.
  let into: Buffer | null =
    Number.isSafeInteger(declared) && declared > 0 ? Buffer.allocUnsafe(declared) : null;
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    onProgress?.();
    const before = total;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw oversize(maxBytes);
    }
    if (into && total <= into.length) {
      into.set(value, before);
      continue;
    }
    if (into) {
      chunks.push(into.subarray(0, before));
      into = null;
    }
    chunks.push(value);
  }
  return into ? into.subarray(0, total) : Buffer.concat(chunks, total);
}

function oversize(maxBytes: number): ServiceError {
  return serviceError('BadResponse', {
    detail: `response larger than ${Math.round(maxBytes / 1024)} KiB`,
  });
}

/** The body as text (php-readings.ts: decided by the bytes); HTML or an empty body is BadResponse. */
function bodyText(bytes: Uint8Array, contentType: string | null): string {
  return checkedText(decodeBody(bytes, contentType));
}

/** Lets whatever else waits on main's event loop (IPC, timers, I/O) run. */
const pause = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Bytes decoded before main's event loop is let go (a short task's worth of work). */
export const TEXT_SLICE = 4 * 1024 * 1024;

/** The start of a body that checkedText's checks read (a PHP message, an HTML page, nothing). */
const HEAD_BYTES = 4096;

/**
 * A list body as UTF-8 bytes without a BOM, its start checked as `bodyText` checks it. UTF-8 is
 * checked whole (Buffer's isUtf8: no text is made) and kept as it came, so the list is never
 * held as both its bytes and a decoded text (json-slices.ts decodes a group at a time). Bytes
 * that are not UTF-8 are read by their label or refused (notUtf8), TEXT_SLICE bytes at a time
 * with main's event loop let go between, and encoded again.
 */
async function utf8Body(bytes: Uint8Array, contentType: string | null): Promise<Uint8Array> {
  if (isUtf8(bytes)) {
    const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
    const body = bom ? bytes.subarray(3) : bytes;
    const from = firstNonSpace(body);
    checkedText(new TextDecoder('utf-8').decode(body.subarray(from, from + HEAD_BYTES)));
    return body;
  }
  const single = notUtf8(contentType);
  const parts: string[] = [];
  for (let at = 0; at < bytes.byteLength; at += TEXT_SLICE) {
    // One byte a character: a slice boundary cuts nothing.
    parts.push(single(bytes.subarray(at, Math.min(at + TEXT_SLICE, bytes.byteLength))));
    await pause();
  }
  return new TextEncoder().encode(checkedText(parts.join('')));
}

function notJson(e: unknown): ServiceError {
  const reason = e instanceof Error ? e.message : 'parse error';
  return serviceError('BadResponse', { detail: `response is not valid JSON (${reason})` });
}

/** Parses a JSON body; HTML pages, truncated and malformed JSON are BadResponse. */
export function parseJsonBody(bytes: Uint8Array, contentType: string | null): unknown {
  return parseJsonText(bodyText(bytes, contentType));
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
 * body's layout is scanned in slices too, main's event loop let go between them; each slice is
 * decoded from the bytes when it is parsed.
 */
export async function listReader<S extends v.ArraySchema<v.GenericSchema, undefined>>(
  schema: S,
  bytes: Uint8Array,
  contentType: string | null,
  what: string,
  item: (raw: unknown) => unknown = (raw) => raw,
  partBytes = BODY_PART_MIN_BYTES,
): Promise<ListReader<v.InferOutput<S['item']>>> {
  const text = await utf8Body(bytes, contentType);
  // Not an array: read whole. A list PHP wrote as an object ({} or keyed "0", "2"…) is read as
  // its values; anything else fails validation at the root.
  if (!looksLikeArray(text)) {
    const list = phpList(parseJsonText(new TextDecoder('utf-8').decode(text)));
    if (!Array.isArray(list)) validateBody(schema, list, what);
    return arrayReader(schema, list as unknown[], what, item);
  }
  let layout: ArrayLayout;
  try {
    layout = await arrayLayoutInSlices(text, LIST_SLICE, pause);
  } catch (e) {
    throw notJson(e);
  }
  const parts = bodyParts(text, layout, partBytes);
  return {
    count: layout.count,
    async *slices() {
      let offset = 0;
      try {
        for (let p = 0; p < parts.length; p++) {
          const part = parts[p];
          if (!part) return;
          for (const group of part.groups) {
            let items: unknown[];
            try {
              items = parseSpanInPlace(part.text, group.open, group.close);
            } catch (e) {
              throw notJson(e);
            }
            yield validateBody(schema, items.map(item), what, offset) as v.InferOutput<S['item']>[];
            offset += group.length;
            await pause();
          }
          // Read: this part goes now, not with the reader.
          parts[p] = null;
        }
      } finally {
        parts.fill(null);
      }
    },
  };
}

/**
 * Large enough that the C library always maps a block of its own for it (glibc maps anything
 * over 32 MiB, whatever it learned since), with room for the last part to end up a group smaller.
 */
export const BODY_PART_MIN_BYTES = 34 * 1024 * 1024;

interface BodyPart {
  text: Uint8Array;
  groups: Array<{ open: number; close: number; length: number }>;
}

/**
 * The body as the parts it is read from, each group whole in one and parsed in place
 * (json-slices.ts parseSpanInPlace). A body under two parts' size is read as it is and goes after
 * the last slice. A larger one is copied out in parts of `partBytes` or more and let go: each
 * part is a mapping of its own, given back once its groups are read, so the end of a 100k list
 * is read beside its records without the bytes already read. Not a copy per group: blocks that
 * small come from the C heap, which glibc does not give back from the middle, so main's RSS
 * kept them after the sync. A function of its own: a closure in listReader that named the body
 * would keep it alive with the reader.
 */
function bodyParts(
  text: Uint8Array,
  layout: ArrayLayout,
  partBytes: number,
): Array<BodyPart | null> {
  const spans = layout.groups.map((g) => ({ ...groupSpan(text, g), length: g.length }));
  const count = Math.floor(text.byteLength / partBytes);
  if (count < 2 || spans.length < 2) return [{ text, groups: spans }];
  const target = text.byteLength / count;
  const parts: Array<BodyPart | null> = [];
  let first = 0;
  for (let i = 0; i < spans.length; i++) {
    const from = spans[first]!.open;
    const last = i === spans.length - 1;
    if (!last && spans[i]!.close - from < target) continue;
    if (!last && parts.length === count - 1) continue;
    const to = spans[i]!.close + 1;
    const groups = spans
      .slice(first, i + 1)
      .map((g) => ({ open: g.open - from, close: g.close - from, length: g.length }));
    // A copy (a Buffer's slice would be a view of the body).
    parts.push({ text: new Uint8Array(text.subarray(from, to)), groups });
    first = i + 1;
  }
  return parts;
}

/** A ListReader over a list already parsed. */
function arrayReader<S extends v.ArraySchema<v.GenericSchema, undefined>>(
  schema: S,
  list: unknown[],
  what: string,
  item: (raw: unknown) => unknown,
): ListReader<v.InferOutput<S['item']>> {
  return {
    count: list.length,
    async *slices() {
      for (let offset = 0; offset < list.length; offset += LIST_SLICE) {
        const items = list.slice(offset, offset + LIST_SLICE).map(item);
        yield validateBody(schema, items, what, offset) as v.InferOutput<S['item']>[];
        await pause();
      }
    },
  };
}

function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw notJson(e);
  }
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
  item?: (raw: unknown) => unknown,
): Promise<v.InferOutput<S>> {
  const out: unknown[] = [];
  for await (const slice of (await listReader(schema, bytes, contentType, what, item)).slices())
    for (const item of slice) out.push(item);
  return out as v.InferOutput<S>;
}

function throwBad(field: string, detail: string): never {
  throw serviceError('BadResponse', { field: field || '(body)', detail: detail.slice(0, 500) });
}

/** The service's own text from an error body ({ message } JSON or plain text), short. */
export function serviceMessageOf(bytes: Uint8Array): string | undefined {
  // Only a message: bytes that are not UTF-8 are shown with U+FFFD rather than refused.
  const text = new TextDecoder('utf-8').decode(bytes).trim();
  if (text === '') return undefined;
  const php = phpMessageOf(text);
  if (php) return `PHP ${php.level}: ${php.text}`;
  if (text.startsWith('<')) {
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
