// The editor's pure rules: field checks and messages, the op fields a form becomes, only the
// changed fields on edit; the custom-fields rows; which customers a drawn ring selects.
import { describe, expect, it } from 'vitest';
import { emptyCustomerFields, PALETTE, type Customer } from '../../src-shared';
import {
  changedFields,
  fieldsOf,
  formValuesOf,
  validateForm,
} from '../../src-renderer/src/features/editor/customer-form';
import {
  customFieldsChanges,
  validateCustomFields,
} from '../../src-renderer/src/features/editor/custom-fields';
import { idsInside } from '../../src-renderer/src/map/tools/point-in-polygon';

const colors = [...PALETTE];
const stamp = { date: '2026-01-02 03:04:05', timezone_type: 3, timezone: 'UTC' };
const record: Customer = {
  ...emptyCustomerFields(),
  id: 'Ab3dE5gH9k',
  name: 'Acme',
  dealAmount: '1200.50',
  latitude: 48.1,
  longitude: 11.5,
  lastVisit: 1_760_000_123,
  numVisits: 4,
  groups: ['A'],
  createdAt: stamp,
  updatedAt: stamp,
};

describe('customer form', () => {
  it('names each problem next to its field', () => {
    const values = formValuesOf(null);
    Object.assign(values, {
      email: 'nope',
      latitude: '91',
      longitude: '-180.5',
      dealAmount: '12a',
      numVisits: '1.5',
      color: 'mauve',
    });
    const errors = validateForm(values, colors);
    expect(Object.keys(errors).sort()).toEqual(
      ['name', 'email', 'latitude', 'longitude', 'dealAmount', 'numVisits', 'color'].sort(),
    );
    expect(errors.latitude).toContain('-90 and 90');
    expect(errors.longitude).toContain('-180 and 180');
  });

  it('accepts edge coordinates and wants both or neither', () => {
    const values = { ...formValuesOf(null), name: 'x', latitude: '-90', longitude: '180' };
    expect(validateForm(values, colors)).toEqual({});
    expect(validateForm({ ...values, longitude: '' }, colors).longitude).toBeDefined();
    expect(validateForm({ ...values, latitude: '', longitude: '' }, colors)).toEqual({});
  });

  it('turns a new form into complete fields of the right types', () => {
    const values = {
      ...formValuesOf(null),
      name: ' New ',
      latitude: '1.5',
      longitude: '2',
      dealAmount: '3.25',
    };
    const fields = fieldsOf(values, 'seconds');
    expect(fields).toMatchObject({
      name: 'New',
      latitude: 1.5,
      longitude: 2,
      dealAmount: 3.25,
      numVisits: 0,
      lastVisit: 0,
      remindAt: 0,
    });
    expect(Object.keys(fields).sort()).toEqual(Object.keys(emptyCustomerFields()).sort());
  });

  it('sends only what the rep changed (an untouched visit date is not rounded to midnight)', () => {
    const initial = formValuesOf(record);
    const current = { ...formValuesOf(record), phone: '555', groups: ['A', 'B'] };
    const changes = changedFields(initial, current, fieldsOf(current, 'seconds'));
    expect(changes).toEqual({ phone: '555', groups: ['A', 'B'] });
    expect(changedFields(initial, formValuesOf(record), fieldsOf(initial, 'seconds'))).toEqual({});
  });
});

describe('custom fields', () => {
  it('checks every row and sends only new or changed entries', () => {
    const rows = [
      { name: 'visits', value: '3' },
      { name: 'region', value: '7' },
      { name: '', value: 'x' },
      { name: 'region', value: '1.5' },
    ];
    const errors = validateCustomFields(rows);
    expect(errors[0]).toEqual({});
    expect(errors[1]!.name).toContain('twice');
    expect(errors[2]).toEqual({ name: 'Enter a name.', value: 'Enter a whole number.' });
    expect(customFieldsChanges(rows.slice(0, 2), { visits: 3, region: 2 })).toEqual({ region: 7 });
    expect(customFieldsChanges(rows.slice(0, 1), { visits: 3 })).toBeNull();
  });
});

describe('area selection', () => {
  it('selects the customers inside a ring, in list order', () => {
    const items = [
      { id: 'in1', position: [1, 1] as [number, number] },
      { id: 'out', position: [3, 3] as [number, number] },
      { id: 'none', position: null },
      { id: 'in2', position: [0.5, 1.8] as [number, number] },
    ];
    const triangle: Array<[number, number]> = [
      [0, 0],
      [2, 0],
      [0, 4],
    ];
    expect(idsInside(items, triangle)).toEqual(['in1', 'in2']);
  });
});
