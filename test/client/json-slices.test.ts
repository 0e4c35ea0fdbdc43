// A list body is parsed in slices (src-main/core/service/json-slices.ts) so a 100k list does not
// hold main's event loop for seconds. It must accept exactly what JSON.parse accepts, give the
// same elements in the same order, and refuse what JSON.parse refuses.
import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { arrayInSlices } from '../../src-main/core/service/json-slices';
import { decodeListBody, LIST_SLICE } from '../../src-main/core/service/responses';
import { mulberry32 } from '../support/prng';
import { immediateTicker } from '../support/ticks';

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
});
