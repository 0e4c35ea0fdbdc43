// One time-unit rule for lastVisit and remindAt: the editor, the visit dialog, the panels and
// the CSV all write in the account's unit and read a stored value the same way.
import { describe, expect, it } from 'vitest';
import { visitChanges } from '../../src-shared/visits';
import { fromAccountTime, type TimeUnit } from '../../src-shared/time-units';
import { fieldsOf, formValuesOf } from '../../src-renderer/src/features/editor/customer-form';
import { CustomerIndex } from '../../src-renderer/src/features/customers/customer-index';
import { formatVisitDate } from '../../src-renderer/src/ui/format';
import { customerRecord } from '../support/customer-record';

const record = customerRecord;

/** Local midnight and a local date-time, as the editor's date inputs hold them. */
const day = new Date(2026, 2, 14).getTime();
const at = new Date(2026, 2, 15, 9, 30).getTime();
const typed = { lastVisit: '2026-03-14', remindAt: '2026-03-15T09:30' };

describe('the editor writes the account unit', () => {
  const cases: [TimeUnit, number][] = [
    ['milliseconds', 1],
    ['seconds', 1000],
  ];
  for (const [unit, divisor] of cases) {
    it(`a new customer on a ${unit} account`, () => {
      const fields = fieldsOf({ ...formValuesOf(null), name: 'New', ...typed }, unit);
      expect(fields.lastVisit).toBe(day / divisor);
      expect(fields.remindAt).toBe(at / divisor);
    });

    it(`a never-visited customer on a ${unit} account`, () => {
      const shown = record({ lastVisit: 0, remindAt: 0 });
      const fields = fieldsOf({ ...formValuesOf(shown), ...typed }, unit);
      expect(fields.lastVisit).toBe(day / divisor);
      expect(fields.remindAt).toBe(at / divisor);
    });
  }

  it('a record holding the other unit is written in the account unit, not its own', () => {
    const shown = record({ lastVisit: 1_700_000_000, remindAt: 1_700_000_000 });
    const fields = fieldsOf({ ...formValuesOf(shown), ...typed }, 'milliseconds');
    expect(fields.lastVisit).toBe(day);
  });

  it('the editor and the visit dialog write the same unit for the same account', () => {
    for (const unit of ['seconds', 'milliseconds'] as const) {
      const shown = record({});
      const visit = visitChanges(shown, { atMs: day, reminder: { atMs: at, type: 'call' } }, unit);
      const edited = fieldsOf({ ...formValuesOf(shown), ...typed }, unit);
      expect(edited.lastVisit).toBe(visit.lastVisit);
      expect(edited.remindAt).toBe(visit.remindAt);
    }
  });
});

describe('one reading rule', () => {
  it('the panels read a stored value exactly as src-shared does', () => {
    for (const value of [0, -5, null]) {
      expect(fromAccountTime(value)).toBeNull();
      expect(formatVisitDate(value)).toBe('—');
    }
    expect(formatVisitDate(1_700_000_000)).toBe(formatVisitDate(1_700_000_000_000));
    expect(fromAccountTime(1_700_000_000)).toBe(1_700_000_000_000);
  });

  it('the editor shows what it was given, in either unit', () => {
    const ms = formValuesOf(record({ lastVisit: day, remindAt: at }));
    const s = formValuesOf(record({ lastVisit: day / 1000, remindAt: at / 1000 }));
    expect(ms).toMatchObject(typed);
    expect(s).toMatchObject(typed);
  });

  it('the list sorts by last visit as the panels read it, whatever unit each value has', () => {
    const views = [
      record({ id: 'Older00001', lastVisit: day - 86_400_000 }),
      record({ id: 'Never00001', lastVisit: 0 }),
      record({ id: 'Newest0001', lastVisit: at / 1000 }),
      record({ id: 'Middle0001', lastVisit: day }),
    ].map((c) => ({ ...c, pending: false, position: null }));
    const ids = CustomerIndex.build(views, 'lastVisit', 'desc').rows.map((c) => c.id);
    expect(ids).toEqual(['Newest0001', 'Middle0001', 'Older00001', 'Never00001']);
  });
});
