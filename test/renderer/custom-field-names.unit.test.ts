// What custom0..custom9 are called (features/editor/custom-field-names.ts): the account's user
// metadata names a field by an entry whose number is its slot, next to other numbers accounts
// keep there (the reference service's demo keeps a visit goal and a quota).
import { describe, expect, it } from 'vitest';
import {
  customFieldNames,
  namesBySlot,
  offeredCustomFields,
} from '../../src-renderer/src/features/editor/custom-field-names';

const none = Array.from({ length: 10 }, () => false);

describe('custom field names', () => {
  it('takes an entry numbered 0..9 as the name of that slot, beside other numbers', () => {
    const names = namesBySlot({
      'Visit goal per week': 20,
      'Quarterly quota': 150_000,
      'Visit day': 0,
      Tier: 1,
    });
    expect(names.slice(0, 3)).toEqual(['Visit day', 'Tier', null]);
  });

  it('leaves a slot two names claim unnamed, and reads no names from a non-object', () => {
    expect(namesBySlot({ A: 3, B: 3, C: 4 }).slice(3, 5)).toEqual([null, 'C']);
    expect(namesBySlot(null).every((n) => n === null)).toBe(true);
    expect(namesBySlot([1, 2]).every((n) => n === null)).toBe(true);
  });

  it('labels an unnamed field "Custom field N" and offers only named, used or kept ones', () => {
    const used = [...none];
    used[5] = true;
    const fields = customFieldNames({ Tier: 1 }, used);
    expect(fields[0]!.label).toBe('Custom field 1');
    expect(fields[1]).toMatchObject({ key: 'custom1', label: 'Tier', named: true });
    expect(offeredCustomFields(fields).map((f) => f.key)).toEqual(['custom1', 'custom5']);
    expect(offeredCustomFields(fields, ['custom8']).map((f) => f.key)).toEqual([
      'custom1',
      'custom5',
      'custom8',
    ]);
  });
});
