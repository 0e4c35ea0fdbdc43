// A list body is parsed in slices (src-main/core/service/json-slices.ts) so a 100k list does not
// hold main's event loop for seconds. It must accept exactly what JSON.parse accepts, give the
// same elements in the same order, and refuse what JSON.parse refuses.
import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { arrayInSlices } from '../../src-main/core/service/json-slices';
import {
  decodeListBody,
  listReader,
  LIST_SLICE,
  TEXT_SLICE,
} from '../../src-main/core/service/responses';
import { mulberry32 } from '../support/prng';
import { immediateTicker } from '../support/clock';
import { collectedMemory } from '../support/heap';

/** The elements the slicer gives, joined, or the word 'refused'. */
function sliced(text: string, per: number): unknown[] | 'refused' {
  try {
    const out: unknown[] = [];
    for (const group of arrayInSlices(text, per)) {
      expect(group.length).toBeLessThanOrEqual(per);
      out.push(...group);
    }
    return out;
  } catch {
    return 'refused';
  }
}

function parsed(text: string): unknown[] | 'refused' {
  try {
    const value = JSON.parse(text) as unknown;
    return Array.isArray(value) ? value : 'refused';
  } catch {
    return 'refused';
  }
}

const TRICKY = [
  '[]',
  ' \n\t[ ] \r\n',
  '[1]',
  '[1,2,3,4,5,6,7]',
  '[ 1 , -2.5e3 , true , false , null ]',
  '["a,b]", "c\\"],[", "\\\\", "\\\\\\"", "é ✓ 😀", "\\u005d"]',
  '[{"a":[1,{"b":"}]"}]},{"c":{}},[],[[[]]]]',
  '[{"name":"O\'Brien, \\"Bob\\"","notes":"line\\nbreak [x] {y}"}]',
  // Refused by JSON.parse, so by the slicer too:
  '[1,]',
  '[,1]',
  '[1 2]',
  '[1,2',
  '[1,2]]',
  '[1,2] x',
  '[{"a":1}',
  '[{"a":[1}]',
  '[{"a":1]}]',
  '["unterminated]',
  '[01]',
  '[1,2,,3]',
  '[tru]',
  '\uFEFF[1]',
  '[{"a":1},{"b":2}',
  '[{"a":"x"}{"b":2}]',
];

describe('a JSON array read in slices', () => {
  it('gives exactly what JSON.parse gives, and refuses what it refuses', () => {
    for (const text of TRICKY) {
      for (const per of [1, 2, 3, 1000])
        expect(sliced(text, per), `${text} / ${per}`).toEqual(parsed(text));
    }
  });

  it('agrees with JSON.parse on random lists cut short or with one character changed', () => {
    const random = mulberry32(11);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;
    const value = (depth: number): unknown => {
      const r = random();
      if (depth > 2 || r < 0.3) return pick(['a', 'b"c', 'x\\y', ']', '},{', 1, -0.5, true, null]);
      if (r < 0.6) return Array.from({ length: Math.floor(random() * 3) }, () => value(depth + 1));
      return Object.fromEntries(
        Array.from({ length: Math.floor(random() * 3) }, (_, i) => [`k${i}`, value(depth + 1)]),
      );
    };
    const chars = ['[', ']', '{', '}', ',', '"', '\\', ' ', 'x', '1', ':'];
    for (let round = 0; round < 400; round++) {
      const list = Array.from({ length: 1 + Math.floor(random() * 8) }, () => value(0));
      const text = JSON.stringify(list, null, round % 2 === 0 ? undefined : 1);
      const at = Math.floor(random() * text.length);
      const variants = [
        text,
        text.slice(0, at),
        text.slice(0, at) + pick(chars) + text.slice(at + 1),
        text.slice(0, at) + pick(chars) + text.slice(at),
      ];
      for (const variant of variants) {
        const per = 1 + Math.floor(random() * 3);
        expect(sliced(variant, per), variant).toEqual(parsed(variant));
      }
    }
  });

  it('refuses a body that is not an array, for the caller to read whole', () => {
    expect(() => [...arrayInSlices('{"customers":[]}', 10)]).toThrow(/not an array/);
  });
});

describe('a list body decoded in slices', () => {
  it("lets main's event loop run between slices, and keeps every element in order", async () => {
    const list = Array.from({ length: 4 * LIST_SLICE + 1 }, (_, i) => ({ id: `c${i}`, n: i }));
    const bytes = new TextEncoder().encode(JSON.stringify(list));
    const schema = v.array(v.object({ id: v.string(), n: v.number() }));
    const ticker = immediateTicker();
    const decoding = decodeListBody(schema, bytes, 'application/json', 'customers');
    // Nothing has run yet: the first slice is parsed before the decode lets go.
    expect(ticker.count).toBe(0);
    const got = await decoding;
    ticker.stop();
    expect(got).toEqual(list);
    // Five slices: the event loop ran after each of the first four at least.
    expect(ticker.count).toBeGreaterThanOrEqual(4);
  });

  it('holds no decoded text and no copy of the body, and lets the body go after the last slice', async () => {
    // A 100k list is ~76 MB of bytes, and a decoded text of it twice that (one accented name
    // makes it a two-byte string). A copy of its bytes (a group at a time) went to the C heap,
    // which glibc keeps once grown: main's RSS held it after the sync. The body itself is one
    // mapping, given back whole once it goes.
    /** The JS heap and the array buffers after a full collection. */
    const collected = async () => {
      const m = await collectedMemory();
      return { heap: m.heapUsed, buffers: m.arrayBuffers };
    };
    // Parsed from JSON, so its strings are flat before the heap is first measured (a template's
    // strings are flattened by the first JSON.stringify of them, which grows the list itself).
    const list = JSON.parse(
      JSON.stringify(
        Array.from({ length: 12 * LIST_SLICE }, (_, i) => ({
          id: `c${i}`,
          name: `Zoë Łukasz ${'x'.repeat(900)}`,
        })),
      ),
    ) as Array<{ id: string; name: string }>;
    const schema = v.array(v.object({ id: v.string(), name: v.string() }));
    let body: Uint8Array | null = new TextEncoder().encode(JSON.stringify(list));
    const size = body.byteLength;
    const sent = body.slice();
    const bodyRef = new WeakRef(body.buffer);
    const before = await collected();
    const reader = await listReader(schema, body, 'application/json', 'customers');
    // The reader is all that is left of the body here (the point of the test, not a dead store).
    // eslint-disable-next-line no-useless-assignment
    body = null;
    // No text of the body in the heap, no copy of its bytes.
    const reading = await collected();
    expect(reading.heap - before.heap).toBeLessThan(size / 4);
    expect(reading.buffers - before.buffers).toBeLessThan(size / 4);
    const got: Array<{ id: string }> = [];
    let slices = 0;
    for await (const slice of reader.slices()) {
      got.push(...slice);
      // Read in place: between slices the body is the bytes it came as.
      if (++slices === 2) expect(Buffer.from(bodyRef.deref()!).equals(sent)).toBe(true);
    }
    expect(got.map((c) => c.id)).toEqual(list.map((c) => c.id));
    // Read once: the reader (still held here) no longer holds the body.
    await collected();
    expect(bodyRef.deref()).toBeUndefined();
    expect(reader.count).toBe(list.length);
  });

  it('copies a large body out in parts and lets each go once its groups are read', async () => {
    // At 100k the body is ~76 MB: read in place it stayed whole beside the records until the
    // last slice. In parts (each a mapping of its own), the part already read is given back.
    const buffers = async () => (await collectedMemory()).arrayBuffers;
    const list = Array.from({ length: 12 * LIST_SLICE + 7 }, (_, i) => ({
      id: `c${i}`,
      name: `Zoë ${'x'.repeat(400 + (i % 13))}`,
    }));
    const schema = v.array(v.object({ id: v.string(), name: v.string() }));
    let body: Uint8Array | null = new TextEncoder().encode(JSON.stringify(list, null, 1));
    const size = body.byteLength;
    const bodyRef = new WeakRef(body.buffer);
    const before = (await buffers()) - size;
    const reader = await listReader(schema, body, null, 'customers', undefined, size / 4);
    // The reader is all that is left of the body here (the point of the test, not a dead store).
    // eslint-disable-next-line no-useless-assignment
    body = null;
    // The body went; its parts hold its bytes once.
    const copied = (await buffers()) - before;
    expect(bodyRef.deref()).toBeUndefined();
    expect(copied).toBeLessThan(size * 1.05);
    const got: Array<{ id: string; name: string }> = [];
    let slices = 0;
    let halfway = 0;
    for await (const slice of reader.slices()) {
      got.push(...slice);
      if (++slices === 8) halfway = (await buffers()) - before;
    }
    expect(got).toEqual(list);
    // Past two of four parts, at most the other two (and a group) are held.
    expect(halfway).toBeLessThan(size * 0.6);
    expect((await buffers()) - before).toBeLessThan(size / 20);
  });

  it('leaves a body as it came when a group in it is not JSON', async () => {
    const list = Array.from({ length: 2 * LIST_SLICE + 3 }, (_, i) => ({ id: `c${i}` }));
    const text = `[ ${list.map((c) => JSON.stringify(c)).join(' ,\n')} ]`;
    const body = new TextEncoder().encode(text.replace('"c2500"', '"c2500" oops'));
    const sent = body.slice();
    const schema = v.array(v.object({ id: v.string() }));
    const reader = await listReader(schema, body, 'application/json', 'customers');
    const got: Array<{ id: string }> = [];
    await expect(
      (async () => {
        for await (const slice of reader.slices()) got.push(...slice);
      })(),
    ).rejects.toThrow(/not valid JSON/);
    expect(got.map((c) => c.id)).toEqual(list.slice(0, LIST_SLICE).map((c) => c.id));
    expect(Buffer.from(body).equals(Buffer.from(sent))).toBe(true);
    // With spaces and line breaks around the separators, every group reads as it did.
    const good = new TextEncoder().encode(text);
    const all: Array<{ id: string }> = [];
    for await (const slice of (await listReader(schema, good, null, 'customers')).slices())
      all.push(...slice);
    expect(all).toEqual(list);
  });

  it('decodes and scans a large body with the event loop let go, to the text Buffer gives', async () => {
    // Over three decode slices of UTF-8 with 2-, 3- and 4-byte characters; bytes that are not
    // UTF-8 too: refused, or read as Windows-1252 when labelled ISO-8859-1 (php-readings.ts).
    const names = ['Zoë Ñúñez', '東京都 営業所', 'Café 🚚 Route', 'plain ascii name'];
    const big: Array<{ id: string; n: number; name: string }> = [];
    for (let bytes = 0, i = 0; bytes < 3 * TEXT_SLICE + 1000; i++) {
      const name = `${names[i % names.length]!} ${'é'.repeat(i % 7)}${'x'.repeat(120)}`;
      big.push({ id: `c${i}`, n: i, name });
      bytes += 150 + name.length * 2;
    }
    const raw = new TextEncoder().encode(JSON.stringify(big));
    // Leading spaces (JSON whitespace) put a run of x's of a name across the first slice's end,
    // where an 'é' (2 bytes) is written: cut in two between slices.
    let k = TEXT_SLICE - 2;
    while (!raw.subarray(k - 1, k + 3).every((b) => b === 0x78)) k--;
    const pad = TEXT_SLICE - 1 - k;
    const good = new Uint8Array(pad + raw.length).fill(0x20, 0, pad);
    good.set(raw, pad);
    good.set([0xc3, 0xa9], TEXT_SLICE - 1);
    const bad = good.slice();
    bad[TEXT_SLICE] = 0x78; // the lead byte without its second byte
    bad[good.indexOf(0x78)] = 0xff; // a byte UTF-8 never has, in the first name
    const schema = v.array(v.object({ id: v.string(), n: v.number(), name: v.string() }));
    await expect(listReader(schema, bad, 'application/json', 'customers')).rejects.toThrow(
      /not valid UTF-8 \(labelled without a charset\)/,
    );
    const latin1 = 'application/json; charset=ISO-8859-1';
    for (const [bytes, label, decoding] of [
      [good, 'application/json', 'utf-8'],
      [good, latin1, 'utf-8'],
      [bad, latin1, 'windows-1252'],
    ] as const) {
      // Node 20's one-shot windows-1252 decode drops the bytes 0x80-0x9f; its streaming one is right.
      const text = new TextDecoder(decoding).decode(bytes, { stream: true });
      const expected = JSON.parse(text) as unknown[];
      const ticker = immediateTicker();
      const reader = await listReader(schema, bytes, label, 'customers');
      // Scanned in `groups` (a turn of the loop between each two), and Windows-1252 decoded in 4
      // slices (a turn after each) first, all before the first slice is even parsed; done in one
      // go, no turn would have run by now (turns may merge: two short of the sum at most). UTF-8
      // is checked in one short call and decoded a group at a time as the slices are read.
      const groups = Math.ceil(expected.length / LIST_SLICE);
      expect(groups).toBeGreaterThan(4);
      const decodeTurns = decoding === 'utf-8' ? 0 : 4;
      expect(ticker.count).toBeGreaterThanOrEqual(decodeTurns + (groups - 1) - 2);
      const got: unknown[] = [];
      for await (const slice of reader.slices()) got.push(...slice);
      ticker.stop();
      expect(reader.count).toBe(expected.length);
      expect(got).toEqual(expected);
    }
  });
});
