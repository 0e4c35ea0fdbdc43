// What the service's bytes are, decided by the bytes rather than by their label: the service is a
// PHP application, whose defaults label JSON text/html, may print a BOM, a newline or a warning
// before it, and may send ISO-8859-1. docs/service-readings.md lists every reading and its test.
import { TextDecoder } from 'node:util';
import { serviceError } from './errors';

const LATIN1_CHARSET = /^(iso-?8859-1|iso_8859-1|latin-?1|l1|cp1252|windows-1252|us-ascii|ascii)$/i;

/** The charset parameter of a Content-Type header, lower-cased; '' when none. */
export function charsetOf(contentType: string | null): string {
  return /charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '')?.[1]?.toLowerCase() ?? '';
}

/**
 * A decoder of the body: UTF-8, refusing a byte sequence that is not UTF-8 (a U+FFFD read in
 * its place would be written back by the next update of that customer). A body that is valid
 * UTF-8 is read as UTF-8 whatever its label says (PHP labels whatever it prints with its
 * default_charset). A leading BOM is dropped.
 */
export function utf8Decoder(): TextDecoder {
  return new TextDecoder('utf-8', { fatal: true });
}

// Windows-1252's characters for the bytes 0x80-0x9f (WHATWG's table; the five it leaves
// undefined stay the C1 controls). Node 20's one-shot TextDecoder('windows-1252') drops these
// bytes, so the decode is done here.
const CP1252_C1 =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

/** Bytes as Windows-1252 text (what the WHATWG reads for an ISO-8859-1 label). */
export function windows1252(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    .toString('latin1')
    .replace(/[\u0080-\u009f]/g, (c) => CP1252_C1[c.charCodeAt(0) - 0x80]!);
}

/**
 * What to do with bytes that are not UTF-8: labelled ISO-8859-1 (or Windows-1252, which the
 * WHATWG reads for that label, as every browser does), the label and the bytes agree, every byte
 * is a character and nothing is guessed: read so. Any other label: refused, naming it.
 */
export function notUtf8(contentType: string | null): (bytes: Uint8Array) => string {
  const charset = charsetOf(contentType);
  if (LATIN1_CHARSET.test(charset)) return windows1252;
  throw serviceError('BadResponse', {
    detail: `the answer is not valid UTF-8 (labelled ${charset ? `charset=${charset}` : 'without a charset'})`,
  });
}

/** The whole body as text (see utf8Decoder and notUtf8). */
export function decodeBody(bytes: Uint8Array, contentType: string | null): string {
  try {
    return utf8Decoder().decode(bytes);
  } catch {
    return notUtf8(contentType)(bytes);
  }
}

// PHP's messages: with html_errors on "<br />\n<b>Warning</b>:  text in <b>file</b> on line
// <b>n</b><br />", with it off "Warning: text in file on line n".
const PHP_MESSAGE =
  /^\s*(?:<br\s*\/?>\s*)?(?:<b>)?(?:PHP )?(Warning|Notice|Deprecated|Strict Standards|Fatal error|Parse error|Recoverable fatal error)(?:<\/b>)?:\s*([\s\S]*?)(?:<br\s*\/?>|\n|$)/i;

/** The text of a PHP warning, notice or error that opens `text`, tags removed; undefined if none. */
export function phpMessageOf(text: string): { level: string; text: string } | undefined {
  const m = PHP_MESSAGE.exec(text);
  if (!m) return undefined;
  const plain = (m[2] ?? '')
    .replace(/<[^>]*>/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return { level: m[1]!, text: plain.slice(0, 300) };
}

/**
 * The body's text, checked to be JSON's business: an empty body, an HTML page, a PHP warning
 * printed before the JSON are BadResponse. The label is not asked: JSON labelled text/html (PHP's
 * default) is read; an HTML page labelled JSON is not. A PHP warning before the JSON is refused
 * rather than skipped: the script went on from a state its author did not expect, and what
 * follows may be a half-built answer.
 */
export function checkedText(text: string): string {
  const php = phpMessageOf(text);
  if (php) {
    throw serviceError('BadResponse', {
      detail: `the service printed a PHP ${php.level.toLowerCase()} before its answer ("${php.text}"); an answer after one is not read`,
    });
  }
  const start = text.trimStart();
  if (start.startsWith('<')) {
    throw serviceError('BadResponse', { detail: 'received an HTML page instead of JSON' });
  }
  if (start === '') throw serviceError('BadResponse', { detail: 'empty response body' });
  return text;
}
