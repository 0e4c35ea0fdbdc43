// Main's reminder schedule on the injected clock, with its file in a temp dir: a reminder
// notifies once when its time comes, offline edits in the queue count, a restart notifies what
// fell due while the app was closed and nothing twice, and a burst becomes one notice.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Customer } from '../../src-shared/domain';
import type { Op } from '../../src-shared/outbox-types';
import { withQueuedOps, remindersOf } from '../../src-shared/reminders';
import {
  ReminderSchedule,
  type ReminderNotice,
} from '../../src-main/core/reminders/reminder-schedule';
import { FakeClock, settle } from '../support/clock';
import { customerRecord } from '../support/customer-record';

const MIN = 60_000;
const START = Date.UTC(2026, 10, 30, 8, 0); // Monday 30 Nov 2026, 08:00 UTC
const sec = (ms: number) => Math.floor(ms / 1000);

let dir: string;
let clock: FakeClock;
let shown: ReminderNotice[];
let opened: Array<string | null>;
let clicks: Array<() => void>;
const open: ReminderSchedule[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fieldmap-reminders-'));
  clock = new FakeClock(START);
  shown = [];
  opened = [];
  clicks = [];
});
afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
  await rm(dir, { recursive: true, force: true });
});

async function schedule(ops: readonly Op[] = []): Promise<ReminderSchedule> {
  const s = await ReminderSchedule.open(
    {
      accountKey: 'acct',
      dir,
      clock,
      notify: (notice, onClick) => {
        shown.push(notice);
        clicks.push(onClick);
      },
      open: (id) => opened.push(id),
    },
    ops,
  );
  open.push(s);
  return s;
}

const customer = (id: string, name: string, remindAt: number, extra: Partial<Customer> = {}) =>
  customerRecord({ id, name, remindAt, remindType: 'Call', address: `${name} St`, ...extra });

function update(target: string, payload: Partial<Customer>, base: Customer | null = null): Op {
  return {
    kind: 'updateCustomer',
    target,
    payload,
    base,
    opId: `op-${target}-${Math.random()}`,
    accountKey: 'acct',
    createdAt: clock.now(),
    attempts: 0,
    lastError: null,
    state: 'pending',
  } as Op;
}

describe('reminder schedule', () => {
  it('notifies once when the time comes, not before, and its click opens the customer', async () => {
    const s = await schedule();
    s.pulled([
      customer('Aaaaaaaaa1', 'Müller GmbH', sec(START + 90 * MIN)),
      customer('Bbbbbbbbb2', 'García', 0),
    ]);
    await clock.advance(89 * MIN);
    expect(shown).toEqual([]);
    await clock.advance(1 * MIN);
    expect(shown).toEqual([
      {
        accountKey: 'acct',
        customerId: 'Aaaaaaaaa1',
        title: 'Call: Müller GmbH',
        body: 'Müller GmbH St',
      },
    ]);
    await clock.advance(120 * MIN);
    expect(shown).toHaveLength(1);
    clicks[0]!();
    expect(opened).toEqual(['Aaaaaaaaa1']);
  });

  it('reads an account that stores milliseconds at the same instant', async () => {
    const s = await schedule();
    s.pulled([customer('Aaaaaaaaa1', 'Søndergaard', START + 5 * MIN)]);
    await clock.advance(5 * MIN - 1);
    expect(shown).toEqual([]);
    await clock.advance(1);
    expect(shown.map((n) => n.customerId)).toEqual(['Aaaaaaaaa1']);
  });

  it('does not burst with the reminders already past when an account is first opened', async () => {
    const s = await schedule();
    s.pulled([
      customer('Aaaaaaaaa1', 'Old', sec(START - 3 * 24 * 60 * MIN)),
      customer('Bbbbbbbbb2', 'Soon', sec(START + 10 * MIN)),
    ]);
    await clock.advance(30 * MIN);
    expect(shown.map((n) => n.customerId)).toEqual(['Bbbbbbbbb2']);
  });

  it('counts a reminder set offline (a queued edit), and follows a snooze and a done', async () => {
    const base = customer('Aaaaaaaaa1', 'Łukasz', 0);
    const s = await schedule();
    s.pulled([base]);
    // Set in the editor, offline: only the outbox knows it.
    s.setOps([update('Aaaaaaaaa1', { remindAt: sec(START + 10 * MIN) }, base)]);
    await clock.advance(10 * MIN);
    expect(shown.map((n) => n.title)).toEqual(['Call: Łukasz']);
    // Snoozed an hour: notifies again then.
    s.setOps([
      update('Aaaaaaaaa1', { remindAt: sec(START + 10 * MIN) }, base),
      update('Aaaaaaaaa1', { remindAt: sec(START + 70 * MIN) }, base),
    ]);
    await clock.advance(59 * MIN);
    expect(shown).toHaveLength(1);
    await clock.advance(1 * MIN);
    expect(shown).toHaveLength(2);
    // Done, then the old time would have come round: nothing.
    s.setOps([update('Aaaaaaaaa1', { remindAt: 0 }, base)]);
    expect(s.list()).toEqual([]);
    await clock.advance(24 * 60 * MIN);
    expect(shown).toHaveLength(2);
  });

  it('after a restart notifies what fell due while closed, once, and nothing twice', async () => {
    const first = await schedule();
    first.pulled([
      customer('Aaaaaaaaa1', 'Before close', sec(START + 5 * MIN)),
      customer('Bbbbbbbbb2', 'While closed', sec(START + 60 * MIN)),
      customer('Ccccccccc3', 'After restart', sec(START + 180 * MIN)),
    ]);
    await clock.advance(10 * MIN);
    expect(shown.map((n) => n.customerId)).toEqual(['Aaaaaaaaa1']);
    await first.close();
    open.length = 0;
    const kept = JSON.parse(await readFile(join(dir, 'reminders.json'), 'utf8')) as {
      reminders: unknown[];
    };
    expect(kept.reminders).toHaveLength(3);

    // Two hours later, no network: the kept reminders alone.
    await clock.advance(110 * MIN);
    await schedule();
    await settle();
    expect(shown.map((n) => n.customerId)).toEqual(['Aaaaaaaaa1', 'Bbbbbbbbb2']);
    await clock.advance(60 * MIN);
    expect(shown.map((n) => n.customerId)).toEqual(['Aaaaaaaaa1', 'Bbbbbbbbb2', 'Ccccccccc3']);
  });

  it('shows more than three due at once as one notice that opens Due today', async () => {
    const s = await schedule();
    const at = sec(START + 5 * MIN);
    s.pulled(
      ['Anna', 'Bert', 'Cleo', 'Dora', 'Emil'].map((name, i) =>
        customer(`Cust00000${i}`, name, at),
      ),
    );
    await clock.advance(5 * MIN);
    expect(shown).toEqual([
      {
        accountKey: 'acct',
        customerId: null,
        title: '5 reminders due',
        body: 'Anna, Bert, Cleo and 2 more. Open Due today.',
      },
    ]);
    clicks[0]!();
    expect(opened).toEqual([null]);
  });

  it('takes an acknowledged change without a pull, and stops when closed', async () => {
    const s = await schedule();
    s.pulled([customer('Aaaaaaaaa1', 'Acme', 0)]);
    s.acknowledged({
      upserted: [customer('Aaaaaaaaa1', 'Acme', sec(START + 2 * MIN))],
      deleted: [],
    });
    expect(s.list().map((r) => r.at)).toEqual([START + 2 * MIN]);
    await s.close();
    await clock.advance(10 * MIN);
    expect(shown).toEqual([]);
  });
});

describe('queued ops over the reminders', () => {
  it('applies creates, edits and deletes in queue order', () => {
    const base = remindersOf([
      customer('Aaaaaaaaa1', 'Kept', sec(START)),
      customer('Bbbbbbbbb2', 'Deleted', sec(START)),
    ]);
    const ops = [
      {
        ...update('tmp_00000000-0000-4000-8000-000000000001', {}),
        kind: 'createCustomer',
        payload: { ...customerRecord(), name: 'New prospect', remindAt: sec(START + MIN) },
      } as Op,
      { ...update('Bbbbbbbbb2', {}), kind: 'deleteCustomer', payload: null } as Op,
      update('Aaaaaaaaa1', { name: 'Renamed' }),
    ];
    const after = withQueuedOps(base, ops);
    expect([...after.values()].map((r) => [r.customerId, r.name, r.at])).toEqual([
      ['Aaaaaaaaa1', 'Renamed', START],
      ['tmp_00000000-0000-4000-8000-000000000001', 'New prospect', START + MIN],
    ]);
  });
});
