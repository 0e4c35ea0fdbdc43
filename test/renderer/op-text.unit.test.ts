// How queued changes read in the Changes view: counts through the formatter's plural rules, so a
// route of one stop reads "1 stop", and an edit names its fields as a rep does, not by API key.
import { describe, expect, it } from 'vitest';
import type { Op } from '../../src-shared';
import { opSummary } from '../../src-renderer/src/features/changes/op-text';

const route = (customerIds: string[]) =>
  ({
    opId: 'op-1',
    kind: 'createRoute',
    target: 'tmp_00000000-0000-4000-8000-00000000a001',
    payload: { routeName: 'Tuesday', customerIds },
    base: null,
    state: 'pending',
  }) as unknown as Op;

describe('queued change text', () => {
  it('counts a route’s stops in the singular and the plural', () => {
    expect(opSummary(route(['a']))).toBe('1 stop');
    expect(opSummary(route(['a', 'b', 'c']))).toBe('3 stops');
  });

  it('names an edit’s fields in words: a moved pin once, a custom field by its key without names', () => {
    const edit = {
      opId: 'op-2',
      kind: 'updateCustomer',
      target: 'c1',
      payload: { remindAt: 0, color: 'red', latitude: 1, longitude: 2, custom3: 'x' },
      base: null,
      state: 'pending',
    } as unknown as Op;
    expect(opSummary(edit)).toBe('Changes reminder, colour, position, custom3');
  });

  it('names a custom field as the account does when its names are given', () => {
    const edit = {
      opId: 'op-3',
      kind: 'updateCustomer',
      target: 'c1',
      payload: { custom0: 'Monday', custom3: 'x', phone: '1' },
      base: null,
      state: 'pending',
    } as unknown as Op;
    const labels = ['Visit day', 'Tier', 'Custom field 3', 'Custom field 4'];
    expect(opSummary(edit, labels)).toBe('Changes Visit day, Custom field 4, phone');
  });
});
