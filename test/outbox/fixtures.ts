// Builders of outbox ops for the tests, and a temp dir per test.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  emptyCustomerFields,
  type Customer,
  type CustomerChanges,
  type CustomFieldsBody,
} from '../../src-shared/domain';
import type { NewOp } from '../../src-shared/outbox-types';
import { Outbox, type OutboxOptions } from '../../src-main/core/outbox/outbox';
import { fsFor, type FsPlatform } from '../support/windows-fs';

export const ACCOUNT = 'http://127.0.0.1:1#demo';

/** A valid, deterministic temp id. */
export function tempId(n: number): string {
  return `tmp_00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
}

export function serverCustomer(id: string, name = `Server ${id}`): Customer {
  const stamp = { date: '2024-01-02 03:04:05', timezone_type: 3, timezone: 'UTC' };
  return { id, ...emptyCustomerFields(), name, createdAt: stamp, updatedAt: stamp };
}

export function createCustomer(target: string, name: string, extra: CustomerChanges = {}): NewOp {
  return {
    kind: 'createCustomer',
    target,
    payload: { ...emptyCustomerFields(), name, ...extra } as NewOp['payload'] & object,
    base: null,
  } as NewOp;
}

export function updateCustomer(
  target: string,
  payload: CustomerChanges,
  base: Customer | null = null,
): NewOp {
  return { kind: 'updateCustomer', target, payload, base };
}

export function deleteCustomer(target: string, base: Customer | null = null): NewOp {
  return { kind: 'deleteCustomer', target, payload: null, base };
}

export function createRoute(target: string, routeName: string, customerIds: string[]): NewOp {
  return { kind: 'createRoute', target, payload: { routeName, customerIds }, base: null };
}

export function updateCustomFields(payload: CustomFieldsBody): NewOp {
  return { kind: 'updateCustomFields', target: 'user', payload, base: null };
}

/**
 * A fresh temp dir and the outboxes opened in it, all cleaned up by `cleanup`; on `platform`
 * 'win32' the outboxes' files go through the player of Windows (test/support/windows-fs.ts).
 */
export async function scratch(platform: FsPlatform = 'posix'): Promise<{
  dir: string;
  open(options?: Partial<OutboxOptions>): Promise<Outbox>;
  cleanup(): Promise<void>;
}> {
  const dir = await mkdtemp(join(tmpdir(), 'fieldmap-outbox-'));
  const fs = fsFor(platform, dir);
  const opened: Outbox[] = [];
  let counter = 0;
  return {
    dir,
    async open(options = {}) {
      const outbox = await Outbox.open({
        dir,
        accountKey: ACCOUNT,
        newOpId: () => `op-${(counter += 1)}`,
        ...(fs ? { fs } : {}),
        ...options,
      });
      opened.push(outbox);
      return outbox;
    },
    async cleanup() {
      for (const outbox of opened) await outbox.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
