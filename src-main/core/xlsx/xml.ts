// A strict, small XML reader for the few SpreadsheetML parts the import reads. Strict: a tag
// closed out of order, an unclosed one, text outside the root, an unknown entity are errors.
// Safe by construction: a DOCTYPE or ENTITY declaration is refused outright (a workbook never
// has one), so no external entity is fetched (XXE) and no entity expands (billion laughs); only
// the five predefined entities and character references are decoded. No regular expressions
// run over the document, so nothing backtracks on crafted input.

export class XmlError extends Error {
  override readonly name = 'XmlError';
}

export interface XmlHandler {
  /** An element opens; names and attribute keys are local (a `x:` or `r:` prefix dropped). */
  open(name: string, attrs: Readonly<Record<string, string>>): void;
  close(name: string): void;
  /** Character data of the current element (decoded; called in pieces). */
  text(text: string): void;
}

const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

const localName = (name: string) => {
  const colon = name.indexOf(':');
  return colon === -1 ? name : name.slice(colon + 1);
};

const isSpace = (c: string) => c === ' ' || c === '\n' || c === '\r' || c === '\t';

/** Elements open at once: SpreadsheetML nests a handful deep. */
export const MAX_XML_DEPTH = 256;
/** Characters of a tag's name and of one attribute value (a sheet's cell ranges stay far under). */
const MAX_NAME_CHARS = 1_000;
/** Attributes of one tag: SpreadsheetML's have a few dozen at most, namespaces included. */
const MAX_ATTRIBUTES = 1_000;
export const MAX_ATTRIBUTE_CHARS = 1024 * 1024;

/** A name as an error message quotes it: never a crafted megabyte. */
const quoted = (name: string) => (name.length > 40 ? `${name.slice(0, 37)}...` : name);

/**
 * Literal line ends as an XML reader hands them over (XML 1.0, 2.11): CR LF and a lone CR are one
 * LF. Excel writes a cell's line break as `_x000D_` then a raw CR LF; only `&#13;` stays a CR.
 */
function lineEnds(raw: string): string {
  return raw.includes('\r') ? raw.split('\r\n').join('\n').split('\r').join('\n') : raw;
}

/** Text with its entity and character references replaced. */
export function decodeXmlText(raw: string): string {
  if (!raw.includes('&')) return raw;
  let out = '';
  let i = 0;
  for (;;) {
    const amp = raw.indexOf('&', i);
    if (amp === -1) return out + raw.slice(i);
    const semi = raw.indexOf(';', amp);
    if (semi === -1 || semi - amp > 12) throw new XmlError('a stray "&"');
    const ref = raw.slice(amp + 1, semi);
    let char: string | undefined;
    if (ref.startsWith('#')) {
      const hex = ref[1] === 'x';
      const digits = ref.slice(hex ? 2 : 1);
      const code = parseInt(digits, hex ? 16 : 10);
      const valid = digits !== '' && /^[0-9a-f]+$/i.test(digits) && (hex || /^\d+$/.test(digits));
      if (!valid || !(code === 0x9 || code === 0xa || code === 0xd || code >= 0x20)) {
        throw new XmlError(`an invalid character reference &${ref};`);
      }
      if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) {
        throw new XmlError(`an invalid character reference &${ref};`);
      }
      char = String.fromCodePoint(code);
    } else char = PREDEFINED[ref];
    if (char === undefined) throw new XmlError(`an unknown entity &${ref.slice(0, 20)};`);
    out += raw.slice(i, amp) + char;
    i = semi + 1;
  }
}

/** Reads `xml` start to end, calling `handler`; throws XmlError on anything not well-formed. */
export function parseXml(xml: string, handler: XmlHandler): void {
  for (const _ of xmlSlices(xml, handler, Infinity)) void _;
}

/** Tags read between two pauses of parseXmlPausing: a few milliseconds of work. */
const TAGS_PER_SLICE = 20_000;

/**
 * parseXml for a large part (a sheet of 50,000 rows): awaits `pause` every TAGS_PER_SLICE tags,
 * so main's event loop (IPC, sync) keeps running while it reads.
 */
export async function parseXmlPausing(
  xml: string,
  handler: XmlHandler,
  pause: () => Promise<void>,
): Promise<void> {
  for (const _ of xmlSlices(xml, handler, TAGS_PER_SLICE)) await pause();
}

/** The reader: yields after every `tagsPerSlice` tags. */
function* xmlSlices(xml: string, handler: XmlHandler, tagsPerSlice: number): Generator<void> {
  let tags = 0;
  const n = xml.length;
  const stack: string[] = [];
  let seenRoot = false;
  let i = xml.charCodeAt(0) === 0xfeff ? 1 : 0;
  const until = (token: string, from: number, what: string) => {
    const at = xml.indexOf(token, from);
    if (at === -1) throw new XmlError(`${what} is never closed`);
    return at;
  };
  while (i < n) {
    const lt = xml.indexOf('<', i);
    const end = lt === -1 ? n : lt;
    if (end > i) {
      const text = xml.slice(i, end);
      if (stack.length > 0) handler.text(decodeXmlText(lineEnds(text)));
      else if (text.trim() !== '') throw new XmlError('text outside the root element');
    }
    if (lt === -1) break;
    if (++tags >= tagsPerSlice) {
      tags = 0;
      yield;
    }
    if (xml.startsWith('<?', lt)) {
      i = until('?>', lt + 2, 'a processing instruction') + 2;
    } else if (xml.startsWith('<!--', lt)) {
      i = until('-->', lt + 4, 'a comment') + 3;
    } else if (xml.startsWith('<![CDATA[', lt)) {
      const close = until(']]>', lt + 9, 'a CDATA section');
      if (stack.length === 0) throw new XmlError('text outside the root element');
      handler.text(lineEnds(xml.slice(lt + 9, close)));
      i = close + 3;
    } else if (xml.startsWith('<!', lt)) {
      throw new XmlError(
        'a document type declaration (<!DOCTYPE or <!ENTITY), which a workbook never has',
      );
    } else if (xml[lt + 1] === '/') {
      const close = until('>', lt, 'an end tag');
      const name = xml.slice(lt + 2, close).trim();
      const open = stack.pop();
      if (open !== name) {
        throw new XmlError(
          open === undefined
            ? `</${quoted(name)}> closes nothing`
            : `</${quoted(name)}> closes <${quoted(open)}>`,
        );
      }
      handler.close(localName(name));
      i = close + 1;
    } else {
      i = startTag(xml, lt, (name, attrs, selfClosing) => {
        if (stack.length === 0) {
          if (seenRoot) throw new XmlError('a second root element');
          seenRoot = true;
        }
        handler.open(localName(name), attrs);
        if (selfClosing) handler.close(localName(name));
        else if (stack.push(name) > MAX_XML_DEPTH) {
          throw new XmlError(`elements nested more than ${MAX_XML_DEPTH} deep`);
        }
      });
    }
  }
  if (stack.length > 0) {
    throw new XmlError(`<${quoted(stack[stack.length - 1]!)}> is never closed`);
  }
  if (!seenRoot) throw new XmlError('no root element');
}

/** Reads the start tag at `lt`; returns the index after it. */
function startTag(
  xml: string,
  lt: number,
  emit: (name: string, attrs: Record<string, string>, selfClosing: boolean) => void,
): number {
  const n = xml.length;
  let j = lt + 1;
  while (j < n && !isSpace(xml[j]!) && xml[j] !== '/' && xml[j] !== '>') j++;
  if (j - lt - 1 > MAX_NAME_CHARS) throw new XmlError('a tag name too long to be one');
  const name = xml.slice(lt + 1, j);
  if (name === '' || name.includes('<')) throw new XmlError('a tag without a name');
  const tag = quoted(name);
  const attrs: Record<string, string> = {};
  let count = 0;
  for (;;) {
    while (j < n && isSpace(xml[j]!)) j++;
    if (j >= n) throw new XmlError(`<${tag}> is never closed`);
    if (xml[j] === '>') {
      emit(name, attrs, false);
      return j + 1;
    }
    if (xml[j] === '/') {
      if (xml[j + 1] !== '>') throw new XmlError(`a stray "/" in <${tag}>`);
      emit(name, attrs, true);
      return j + 2;
    }
    if (++count > MAX_ATTRIBUTES) throw new XmlError(`<${tag}> has too many attributes`);
    const keyStart = j;
    while (j < n && !isSpace(xml[j]!) && xml[j] !== '=' && xml[j] !== '>' && xml[j] !== '/') j++;
    if (j - keyStart > MAX_NAME_CHARS)
      throw new XmlError(`an attribute name in <${tag}> too long to be one`);
    const key = xml.slice(keyStart, j);
    while (j < n && isSpace(xml[j]!)) j++;
    if (xml[j] !== '=') throw new XmlError(`the attribute ${quoted(key)} of <${tag}> has no value`);
    j++;
    while (j < n && isSpace(xml[j]!)) j++;
    const quote = xml[j];
    if (quote !== '"' && quote !== "'") {
      throw new XmlError(`the attribute ${quoted(key)} of <${tag}> is not quoted`);
    }
    const close = xml.indexOf(quote, j + 1);
    if (close === -1) throw new XmlError(`<${tag}> is never closed`);
    if (close - j - 1 > MAX_ATTRIBUTE_CHARS) {
      throw new XmlError(
        `the attribute ${quoted(key)} of <${tag}> has more than ${MAX_ATTRIBUTE_CHARS.toLocaleString('en')} characters`,
      );
    }
    const raw = xml.slice(j + 1, close);
    if (raw.includes('<')) throw new XmlError(`a "<" in the attribute ${quoted(key)} of <${tag}>`);
    if (!key.startsWith('xmlns')) attrs[localName(key)] = decodeXmlText(raw);
    j = close + 1;
  }
}

/**
 * Text of a cell as Excel means it: Excel writes characters XML cannot carry (a carriage return
 * of a line break, control characters) as `_xHHHH_`, and a literal "_x" as `_x005F_x`.
 */
export function officeText(text: string): string {
  return text.includes('_x')
    ? text.replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex: string) =>
        String.fromCharCode(parseInt(hex, 16)),
      )
    : text;
}
