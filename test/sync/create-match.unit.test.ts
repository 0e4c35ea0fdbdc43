// How a create recognises its record in the service's own form (sync/creates/match.ts), and
// where recognition stops: a record that only resembles it is a candidate for the rep.
import { describe, expect, it } from 'vitest';
import { emptyCustomerFields, type CustomerFields } from '../../src-shared/domain';
import { candidatesFor, resemblance, sameRecord } from '../../src-main/core/sync/creates/match';
import { normaliseStored } from '../../src-service/normalise';

const sent: CustomerFields = {
  ...emptyCustomerFields(),
  name: '  Rosa   Vik ',
  company: "O'Hara & Sons",
  city: 'saint  paul',
  state: 'mn',
  email: 'Rosa.Vik@Example.COM',
  notes: ' first <b>line</b> ',
  groups: [' vip ', 'north'],
  latitude: 44.9537029,
  longitude: -93.0899578,
  dealAmount: 1234.5,
};

/** What the normalising reference store keeps, as a client reads it back. */
function stored(fields: CustomerFields, extra: Partial<CustomerFields> = {}): CustomerFields {
  const kept = { ...fields, ...normaliseStored(fields as never), ...extra } as CustomerFields;
  return {
    ...kept,
    dealAmount: kept.dealAmount === null ? null : Number(kept.dealAmount).toFixed(2),
  };
}

describe('recognising a created record', () => {
  it('in the service form: whitespace, case, entities, rounding, "1234.50"', () => {
    const record = stored(sent);
    expect(record.company).toBe('O&#039;Hara &amp; Sons');
    expect(record.latitude).toBe(44.9537);
    expect(sameRecord(sent, record)).toBe(true);
  });

  it('with a text cut to its column', () => {
    const long = { ...sent, notes: 'x'.repeat(300) };
    expect(sameRecord(long, { ...long, notes: 'x'.repeat(255) })).toBe(true);
    expect(sameRecord(long, { ...long, notes: 'x'.repeat(100) })).toBe(false);
  });

  it('not when a value differs beyond rounding', () => {
    expect(sameRecord(sent, stored(sent, { latitude: 44.95373 }))).toBe(false);
    expect(sameRecord(sent, stored(sent, { dealAmount: 1234.51 }))).toBe(false);
    expect(sameRecord(sent, stored(sent, { phone: '555-0199' }))).toBe(false);
  });

  it('a look-alike is a candidate, an unrelated record is not', () => {
    const lookAlike = { ...stored(sent, { phone: '555-0199' }), id: 'a' };
    const other = {
      ...stored({ ...emptyCustomerFields(), name: 'Tia Moe', city: 'Oslo' }),
      id: 'b',
    };
    expect(resemblance(sent, lookAlike)).toMatchObject({ same: false, similar: true });
    expect(resemblance(sent, other).similar).toBe(false);
    expect(candidatesFor(sent, [other, lookAlike] as never).map((c) => c.id)).toEqual(['a']);
  });
});
