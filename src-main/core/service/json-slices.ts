// A JSON array read in slices, so that a large list body does not hold main's event loop for
// seconds: one JSON.parse of the whole text and the validation after it are each one long task,
// during which every IPC call of the window (an edit's enqueue, its ack, the outbox event that
// shows the edit) would wait. Here the body is split
// at the array's top-level commas into groups of `per` elements, each group parsed on its own
// (`[` + group + `]`) and handed to the caller, which may yield between groups.
//
// The scan reads the UTF-8 bytes, not a decoded text: each group is decoded only when it is
// parsed, so the whole body is never held twice (a decoded list with one accented name is a
// two-byte string, twice the bytes' size, for as long as its slices are read). JSON's structure
// is ASCII and no byte of a multi-byte UTF-8 sequence is below 0x80, so the bytes split where
// the text would.
//
// What it accepts is exactly what JSON.parse accepts for a top-level array: the groups are the
// array's elements, in order, split only between elements; each group must parse as an array
// (so every element is valid JSON), and the text around the array may hold only JSON whitespace.
// Valid comma-separated lists joined by commas are a valid list, so a text JSON.parse refuses is
// refused here too (with the parser's message for the group that failed).

/** JSON's whitespace: space, tab, line feed, carriage return (not a BOM or other Unicode spaces). */
function isJsonSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

function skipSpace(text: Uint8Array, from: number): number {
  let i = from;
  while (i < text.length && isJsonSpace(text[i]!)) i++;
  return i;
}

export class JsonSliceError extends Error {}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Index just past the string that starts at `from` (a quote). */
function endOfString(text: Uint8Array, from: number): number {
  let j = from + 1;
  for (;;) {
    const k = text.indexOf(QUOTE, j);
    if (k < 0) throw new JsonSliceError('Unterminated string in JSON');
    let slashes = 0;
    for (let b = k - 1; text[b] === BACKSLASH; b--) slashes++;
    if (slashes % 2 === 0) return k + 1;
    j = k + 1;
  }
}

/** Index just past the value that starts at `from` (not whitespace). */
function endOfValue(text: Uint8Array, from: number): number {
  const first = text[from]!;
  if (first === QUOTE) return endOfString(text, from);
  if (first === 0x7b || first === 0x5b) {
    let depth = 0;
    for (let i = from; i < text.length;) {
      const c = text[i]!;
      if (c === QUOTE) {
        i = endOfString(text, i);
        continue;
      }
      if (c === 0x7b || c === 0x5b) depth++;
      else if (c === 0x7d || c === 0x5d) depth--;
      i++;
      if (depth === 0) return i;
    }
    throw new JsonSliceError('Unexpected end of JSON input');
  }
  // A number, true, false or null: up to the next comma, bracket or space (JSON.parse checks it).
  let i = from;
  for (; i < text.length; i++) {
    const c = text[i]!;
    if (c === 0x2c || c === 0x5d || c === 0x7d || isJsonSpace(c)) break;
  }
  if (i === from) throw new JsonSliceError(`Unexpected character at position ${from} in JSON`);
  return i;
}

/** Where the elements of a top-level array lie: groups of at most `per`, by text offsets. */
export interface ArrayLayout {
  /** Elements in the whole array. */
  count: number;
  /** Each group's text (from its first element's start to its last element's end). */
  groups: Array<{ start: number; end: number; length: number }>;
}

/**
 * The layout of the top-level array of `text` in groups of at most `per` elements (a scan of
 * the structure only: strings are skipped with indexOf, no value is built). Throws
 * JsonSliceError for a text that is not an array or whose structure is broken; the values
 * themselves are checked when each group is parsed (parseGroup).
 */
function arrayLayout(text: Uint8Array, per: number): ArrayLayout {
  const steps = layoutSteps(text, per);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * `arrayLayout`, letting `pause` run after each group is scanned: the scan of a large list is
 * one long task of main's otherwise.
 */
export async function arrayLayoutInSlices(
  text: Uint8Array,
  per: number,
  pause: () => Promise<void>,
): Promise<ArrayLayout> {
  const steps = layoutSteps(text, per);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await pause();
  }
}

/** The scan of arrayLayout, suspended after each group it completes. */
function* layoutSteps(text: Uint8Array, per: number): Generator<void, ArrayLayout, void> {
  const layout: ArrayLayout = { count: 0, groups: [] };
  let i = skipSpace(text, 0);
  if (text[i] !== 0x5b) throw new JsonSliceError('not an array');
  i = skipSpace(text, i + 1);
  if (text[i] === 0x5d) {
    if (skipSpace(text, i + 1) !== text.length)
      throw new JsonSliceError(`Unexpected non-whitespace character after JSON at ${i + 1}`);
    return layout;
  }
  let groupStart = i;
  let inGroup = 0;
  for (;;) {
    if (i >= text.length) throw new JsonSliceError('Unexpected end of JSON input');
    const end = endOfValue(text, i);
    inGroup++;
    layout.count++;
    i = skipSpace(text, end);
    const c = text[i];
    if (c === 0x5d) {
      layout.groups.push({ start: groupStart, end, length: inGroup });
      if (skipSpace(text, i + 1) !== text.length)
        throw new JsonSliceError(`Unexpected non-whitespace character after JSON at ${i + 1}`);
      return layout;
    }
    if (c !== 0x2c) {
      if (i >= text.length) throw new JsonSliceError('Unexpected end of JSON input');
      throw new JsonSliceError(`Expected ',' or ']' after array element at position ${i}`);
    }
    i = skipSpace(text, i + 1);
    if (inGroup === per) {
      layout.groups.push({ start: groupStart, end, length: inGroup });
      groupStart = i;
      inGroup = 0;
      yield;
    }
  }
}

const decoder = new TextDecoder('utf-8');

/**
 * The elements of one group of `arrayLayout` (JSON.parse's SyntaxError for a bad value). The
 * bytes are UTF-8 (the caller checked them: this decoder replaces nothing it is given).
 */
export function parseGroup(text: Uint8Array, group: { start: number; end: number }): unknown[] {
  return JSON.parse(`[${decoder.decode(text.subarray(group.start, group.end))}]`) as unknown[];
}

/**
 * Where a group of `arrayLayout` of `text` lies with its separators: the `[` or `,` before its
 * first element (`open`) and the `,` or `]` after its last (`close`).
 */
export function groupSpan(
  text: Uint8Array,
  group: { start: number; end: number },
): { open: number; close: number } {
  let open = group.start - 1;
  while (open > 0 && isJsonSpace(text[open]!)) open--;
  return { open, close: skipSpace(text, group.end) };
}

/**
 * The elements of the group whose separators are at `open` and `close` (groupSpan), decoded from
 * the text itself: the separators are written over with brackets for the one decode and put back
 * at once, so there is neither a copy of the group's bytes nor a second text with the brackets
 * added (a group of a large list is MBs of main's heap). `text` is unchanged when this returns or
 * throws; nothing else may read it meanwhile (the decode is synchronous).
 */
export function parseSpanInPlace(text: Uint8Array, open: number, close: number): unknown[] {
  const before = text[open]!;
  const after = text[close]!;
  text[open] = 0x5b;
  text[close] = 0x5d;
  let decoded: string;
  try {
    decoded = decoder.decode(text.subarray(open, close + 1));
  } finally {
    text[open] = before;
    text[close] = after;
  }
  return JSON.parse(decoded) as unknown[];
}

/**
 * The top-level array of `text` as groups of at most `per` parsed elements, in order. Throws
 * JsonSliceError or the SyntaxError of JSON.parse for a text JSON.parse would refuse.
 */
export function* arrayInSlices(text: string, per: number): Generator<unknown[], void, void> {
  const bytes = new TextEncoder().encode(text);
  for (const group of arrayLayout(bytes, per).groups) yield parseGroup(bytes, group);
}

/** Whether the body's first non-space byte opens an array. */
export function looksLikeArray(text: Uint8Array): boolean {
  return text[skipSpace(text, 0)] === 0x5b;
}

/** Where the body's first byte that is not JSON whitespace is (its length when none). */
export function firstNonSpace(text: Uint8Array): number {
  return skipSpace(text, 0);
}
