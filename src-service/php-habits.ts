// How a PHP application plausibly writes its answers where the spec says nothing: the label,
// the bytes before and in the JSON, the shapes json_encode and PDO give values. Each habit is a
// variant (types.ts PhpHabits); the defaults write what the spec reads.
import type { ServerResponse } from 'node:http';
import type { Variants } from './types';

/** An answer without a body (204, or PHP echoing nothing). */
export const NO_BODY = Symbol('no body');

/** What PHP prints before its output when a notice fires in an included file. */
export const PHP_WARNING =
  '<br />\n<b>Warning</b>:  Undefined array key "sort" in <b>/var/www/api/v1/index.php</b> on line <b>42</b><br />\n';

/** PHP's answer to an uncaught exception with display_errors on. */
export const PHP_FATAL_HTML =
  '<br />\n<b>Fatal error</b>:  Uncaught PDOException: SQLSTATE[HY000] [2002] Connection refused in /var/www/api/v1/db.php:12\nStack trace:\n#0 {main}\n  thrown in <b>/var/www/api/v1/db.php</b> on line <b>12</b><br />\n';

const INTEGER_KEY = /^(0|[1-9]\d*)$/;

/**
 * A body's values in the shapes of the habits: arrays as objects with holes (array_filter keeps
 * the keys) and empty arrays as {}, numeric ids as numbers, numbers as strings, "" as null.
 */
export function phpShapes(value: unknown, v: Variants, key = ''): unknown {
  if (Array.isArray(value)) {
    const items = value.map((item) => phpShapes(item, v));
    if (v.arrays === 'list') return items;
    // Keys 0, 2, 4…: what array_filter leaves after dropping every other element.
    return Object.fromEntries(items.map((item, i) => [String(i * 2), item]));
  }
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, item]) => [k, phpShapes(item, v, k)]));
  }
  let out = value;
  if (v.ids === 'numeric' && key === 'id' && typeof out === 'string' && INTEGER_KEY.test(out)) {
    out = Number(out);
  }
  if (v.numbers === 'strings' && typeof out === 'number') out = String(out);
  if (v.emptyText === 'null' && out === '') out = null;
  return out;
}

/** json_encode(…, JSON_PRETTY_PRINT): 4 spaces, "/" as "\/", every non-ASCII as \uXXXX. */
function phpJson(value: unknown): string {
  return JSON.stringify(value, null, 4)
    .replace(/\//g, '\\/')
    .replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function contentType(v: Variants): string {
  const type = v.contentType === 'php-default' ? 'text/html' : 'application/json';
  const latin1Label = v.charset === 'utf-8-labelled-latin1' || v.charset === 'latin1';
  return `${type}; charset=${latin1Label ? 'ISO-8859-1' : v.contentType === 'php-default' ? 'UTF-8' : 'utf-8'}`;
}

/** The bytes of a body: ISO-8859-1 ones lose what Latin-1 cannot hold ("?", as utf8_decode). */
function bytesOf(text: string, v: Variants): Buffer {
  if (v.charset !== 'latin1' && v.charset !== 'latin1-labelled-utf-8') {
    return Buffer.from(text, 'utf8');
  }
  return Buffer.from(text.replace(/[\u0100-\uffff]/g, '?'), 'latin1');
}

/** The text a body becomes: prefix, then the JSON in the habit's style. */
export function bodyText(body: unknown, v: Variants): string {
  const json = v.jsonStyle === 'php-pretty' ? phpJson(body) : JSON.stringify(body);
  const prefix =
    v.bodyPrefix === 'bom'
      ? '\ufeff'
      : v.bodyPrefix === 'newline'
        ? '\n'
        : v.bodyPrefix === 'php-warning'
          ? PHP_WARNING
          : '';
  return prefix + json;
}

/** Writes one answer with the habits' label, bytes and framing. */
export function sendAnswer(
  res: ServerResponse,
  v: Variants,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (body === NO_BODY) {
    res.writeHead(status, status === 204 ? headers : { 'Content-Length': '0', ...headers });
    res.end();
    return;
  }
  const bytes = bytesOf(bodyText(body, v), v);
  writeBytes(res, v, status, bytes, { 'Content-Type': contentType(v), ...headers });
}

/** A PHP fatal error page, as a 500/502 answers under serverError 'php-html'. */
export function sendFatal(res: ServerResponse, v: Variants, status: number): void {
  const bytes = Buffer.from(PHP_FATAL_HTML, 'utf8');
  writeBytes(res, v, status, bytes, { 'Content-Type': 'text/html; charset=UTF-8' });
}

function writeBytes(
  res: ServerResponse,
  v: Variants,
  status: number,
  bytes: Buffer,
  headers: Record<string, string>,
): void {
  if (v.transfer === 'length') {
    res.writeHead(status, { 'Content-Length': String(bytes.byteLength), ...headers });
    res.end(bytes);
    return;
  }
  res.writeHead(status, headers);
  const half = Math.floor(bytes.byteLength / 2);
  res.write(bytes.subarray(0, half));
  res.end(bytes.subarray(half));
}
