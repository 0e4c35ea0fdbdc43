// A customer record as the service returns it, for tests of pure rules: every writable field
// empty, a server id, fixed timestamps; `changes` on top.
import { emptyCustomerFields, type Customer } from '../../src-shared/domain';

export const STAMP = { date: '2026-01-02 03:04:05', timezone_type: 3, timezone: 'UTC' };

export function customerRecord(changes: Partial<Customer> = {}): Customer {
  return {
    ...emptyCustomerFields(),
    id: 'Ab3dE5gH9k',
    name: 'Acme',
    createdAt: STAMP,
    updatedAt: STAMP,
    ...changes,
  };
}
