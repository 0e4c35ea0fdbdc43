// How a CSV file from the real world is written: its encoding (a BOM, else valid UTF-8, else
// Windows-1252, which is what Excel on Windows saves as "CSV") and its separator (comma; semicolon
// where Excel's locale writes decimal commas; tab). The decoding itself is the caller's (the
// WHATWG TextDecoder under each label); this file only decides and describes.

/** The encodings an import reads, by their WHATWG TextDecoder label. */
export type CsvEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';
export type CsvSeparator = ',' | ';' | '\t';

const ENCODING_NAMES: Record<CsvEncoding, string> = {
  'utf-8': 'UTF-8',
  'utf-16le': 'UTF-16 little-endian',
  'utf-16be': 'UTF-16 big-endian',
  'windows-1252': 'Windows-1252 (Western European)',
};
const SEPARATOR_NAMES: Record<CsvSeparator, string> = {
  ',': 'commas',
  ';': 'semicolons',
  '\t': 'tabs',
};

/** The encoding a byte-order mark at the start of `head` names; null when there is none. */
export function bomEncoding(head: Uint8Array): CsvEncoding | null {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return 'utf-8';
  if (head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
  if (head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  return null;
}

/** What the import preview says it found: "Windows-1252 (Western European), separated by semicolons". */
export function describeCsvFormat(
  encoding: CsvEncoding,
  withBom: boolean,
  separator: CsvSeparator,
): string {
  const name = ENCODING_NAMES[encoding] + (withBom && encoding === 'utf-8' ? ' with BOM' : '');
  return `${name}, separated by ${SEPARATOR_NAMES[separator]}`;
}

/**
 * Why decoded text is not a CSV at all, or null: a NUL character never occurs in text an
 * export writes, but in every binary file (an old .xls, a PDF) and in UTF-16 saved without a BOM.
 */
export function notTextReason(text: string): string | null {
  if (!text.includes('\u0000')) return null;
  return (
    'It is not a text CSV file (it holds binary data, or it is UTF-16 without a byte-order ' +
    'mark). Open it in Excel and save it as "CSV UTF-8" or "Unicode Text".'
  );
}

const CANDIDATES: readonly CsvSeparator[] = [',', ';', '\t'];
/** Records looked at to decide: enough to see a pattern, few enough to stay instant. */
const SAMPLE_RECORDS = 50;

/** Fields per record of the first records of `text` split on `separator`, quotes respected. */
function fieldCounts(text: string, separator: CsvSeparator): number[] {
  const counts: number[] = [];
  let fields = 1;
  let filled = false;
  let quoted = false;
  for (let i = 0; i < text.length && counts.length < SAMPLE_RECORDS; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"') quoted = false;
      continue;
    }
    if (c === '\n' || c === '\r') {
      if (filled) counts.push(fields);
      fields = 1;
      filled = false;
    } else {
      filled = true;
      if (c === '"') quoted = true;
      else if (c === separator) fields++;
    }
  }
  if (filled && counts.length < SAMPLE_RECORDS) counts.push(fields);
  return counts;
}

/**
 * The separator of a CSV text: the candidate that splits the header into more than one column
 * and the most records into as many columns as the header (a semicolon file's decimal commas
 * make the comma split unevenly); then the one making more columns. A single column: comma.
 */
export function detectSeparator(text: string): CsvSeparator {
  let best: { separator: CsvSeparator; agree: number; columns: number } | null = null;
  for (const separator of CANDIDATES) {
    const [columns = 1, ...rest] = fieldCounts(text, separator);
    if (columns < 2) continue;
    const agree = rest.length === 0 ? 1 : rest.filter((n) => n === columns).length / rest.length;
    if (!best || agree > best.agree || (agree === best.agree && columns > best.columns))
      best = { separator, agree, columns };
  }
  return best?.separator ?? ',';
}

const DECIMAL_COMMA_RE = /^-?(\d{1,3}(\.\d{3})+|\d+)(,\d+)?$/;

/**
 * A number cell as written where the decimal mark is a comma ("48,137", "1.234,50") in the
 * decimal-point form the checks read; any other text unchanged.
 */
export function fromDecimalComma(cell: string): string {
  const text = cell.trim();
  if (!DECIMAL_COMMA_RE.test(text) || !text.includes(',')) return cell;
  return text.replace(/\./g, '').replace(',', '.');
}
