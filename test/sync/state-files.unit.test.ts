import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConflictLog } from '../../src-main/core/sync/conflict-log';
import { Backoff, stateAfterError } from '../../src-main/core/sync/connectivity';
import { SyncLedger } from '../../src-main/core/sync/creates/ledger';
import type { DurableFs } from '../../src-main/core/durable-fs';
import { fsFor, FS_PLATFORMS } from '../support/windows-fs';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'fieldmap-sync-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

// The engine's state files on this machine's files and on Windows' as windows-fs.ts plays them.
describe.each(FS_PLATFORMS)('on %s files', (platform) => {
  let fs: DurableFs | undefined;
  beforeEach(() => {
    fs = fsFor(platform, dir);
  });

  describe('ConflictLog', () => {
    it('persists conflicts and resolutions across reopen', async () => {
      const log = await ConflictLog.open(dir, 'acct', fs);
      const [c] = await log.add([
        {
          customerId: 'id1',
          customerName: 'Acme',
          field: 'name',
          baseValue: 'a',
          repValue: 'b',
          serverValue: 'c',
          at: 1,
        },
      ]);
      await log.resolve(c!.conflictId, 'server');
      const reopened = await ConflictLog.open(dir, 'acct', fs);
      expect(reopened.list()).toEqual([{ ...c, resolution: 'server' }]);
      expect(await readdir(dir)).toEqual(['conflicts.json']);
    });

    it('replaces an undecided conflict on the same field by the newer one', async () => {
      const log = await ConflictLog.open(dir, 'acct', fs);
      const entry = {
        customerId: 'id1',
        customerName: 'Acme',
        field: 'city',
        baseValue: 'a',
        repValue: 'b',
        at: 1,
      };
      await log.add([{ ...entry, serverValue: 'c' }]);
      await log.add([{ ...entry, serverValue: 'd' }]);
      expect(log.list().map((c) => c.serverValue)).toEqual(['d']);
    });

    it('keeps every decision when the rep answers two conflicts at once', async () => {
      const log = await ConflictLog.open(dir, 'acct', fs);
      const entry = {
        customerId: 'id1',
        customerName: 'Acme',
        baseValue: 'a',
        repValue: 'b',
        at: 1,
      };
      const [phone, notes] = await log.add([
        { ...entry, field: 'phone', serverValue: 'c' },
        { ...entry, field: 'notes', serverValue: 'd' },
      ]);
      await Promise.all([
        log.resolve(phone!.conflictId, 'server'),
        log.resolve(notes!.conflictId, 'rep'),
      ]);
      const expected = { phone: 'server', notes: 'rep' };
      const byField = (l: ConflictLog) =>
        Object.fromEntries(l.list().map((c) => [c.field, c.resolution]));
      expect(byField(log)).toEqual(expected);
      expect(byField(await ConflictLog.open(dir, 'acct', fs))).toEqual(expected);
    });
  });

  describe('SyncLedger', () => {
    it('remembers known ids, sent creates and resolutions across reopen', async () => {
      const ledger = await SyncLedger.open(dir, fs);
      await ledger.beforeSend(
        { customerIds: ['a', 'b'], routeIds: ['r'] },
        ['op1', 'op2'],
        new Set(['op1', 'op2']),
      );
      await ledger.settle(new Map([['op1', 'c']]), new Map());
      const again = await SyncLedger.open(dir, fs);
      expect(again.wasSent('op1')).toBe(false);
      expect(again.wasSent('op2')).toBe(true);
      expect(again.resolvedId('op1')).toBe('c');
      expect([...again.excludedCustomerIds()].sort()).toEqual(['a', 'b', 'c']);
      expect(
        JSON.parse(await readFile(path.join(dir, 'sync-ledger.json'), 'utf8')).knownRouteIds,
      ).toEqual(['r']);
    });

    it('keeps applied resolutions excluded after their ops leave the outbox', async () => {
      const ledger = await SyncLedger.open(dir, fs);
      await ledger.beforeSend({ customerIds: ['a'] }, ['op1'], new Set(['op1']));
      await ledger.settle(new Map([['op1', 'c']]), new Map());
      await ledger.beforeSend({}, ['op2'], new Set(['op2']));
      expect(ledger.resolvedId('op1')).toBeUndefined();
      expect(ledger.excludedCustomerIds().has('c')).toBe(true);
    });
  });
});

describe('connectivity and progress', () => {
  it('maps errors to states', () => {
    expect(stateAfterError('Offline', '', 5)).toEqual({ kind: 'offline', nextProbeAt: 5 });
    expect(stateAfterError('NotAllowListed', '', 7)).toEqual({
      kind: 'off-network',
      nextProbeAt: 7,
    });
    expect(stateAfterError('Unauthorized', '', null)).toEqual({ kind: 'auth-required' });
    expect(stateAfterError('BadResponse', '', null).kind).toBe('error');
  });
  it('words a failed sync as a read: no change was refused or left unsent', () => {
    // A sync stops on a failed read; a write's failure stays on its op.
    for (const kind of [
      'Rejected',
      'RateLimited',
      'Ambiguous',
      'BadResponse',
      'ServerError',
    ] as const) {
      const state = stateAfterError(kind, 'not_found: No such endpoint', 1);
      expect(state.kind).toBe('error');
      const message = (state as { message: string }).message.replace('Nothing was changed', '');
      expect(message).not.toMatch(/this change|sending|saving|writing/i);
    }
  });
  it('backs off exponentially up to a cap', () => {
    const b = new Backoff({ initialMs: 100, maxMs: 500, factor: 2 });
    expect([b.next(), b.next(), b.next(), b.next()]).toEqual([100, 200, 400, 500]);
    b.reset();
    expect(b.next()).toBe(100);
  });
});
