// Visit logging through main's real services (IPC router, outbox, sync engine) against the
// reference service over HTTP: exactly one more visit per visit logged, online, offline across
// a restart, and when the answer to the PUT is lost; in seconds and in milliseconds accounts.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Customer } from '../../src-shared/domain';
import type { NewOp } from '../../src-shared/outbox-types';
import {
  detectTimeUnit,
  isReminderDue,
  daysSinceLastVisit,
  filterByVisit,
  visitAgeBucket,
  visitOp,
  visitNoteLine,
  type TimeUnit,
} from '../../src-shared/visits';
import { applyChanges } from '../../src-main/core/sync/merge';
import { startService, type RunningService } from '../../src-service/index';
import { HAS_KEYCHAIN, startApp, type AppUnderTest } from '../support/main';

const LOOPBACK = ['127.0.0.1/8', '::1'];
const ACCOUNTS = {
  seconds: { username: 'rep-s', password: 'visits-s-pw-1' },
  milliseconds: { username: 'rep-ms', password: 'visits-ms-pw-2' },
} as const;
const DAY = 86_400_000;

/** Drives syncs until the outbox is empty (the engine may already be syncing). */
async function syncUntilEmpty(app: AppUnderTest): Promise<void> {
  for (let i = 0; i < 6; i++) {
    await app.ok('sync:now');
    if ((await app.ok('outbox:list')).length === 0) return;
  }
  throw new Error(`outbox not empty: ${JSON.stringify(await app.ok('outbox:list'))}`);
}

describe('detectTimeUnit and the visit views', () => {
  const at = (lastVisit: number, remindAt = 0) => ({ lastVisit, remindAt });
  it('reads the unit from the median of non-zero values; none means seconds', () => {
    expect(detectTimeUnit([])).toBe('seconds');
    expect(detectTimeUnit([at(0), at(0, 0)])).toBe('seconds');
    expect(detectTimeUnit([at(1_700_000_000), at(0, 1_710_000_000)])).toBe('seconds');
    expect(detectTimeUnit([at(1_700_000_000_000), at(1_700_000_100_000), at(1_700_000_000)])).toBe(
      'milliseconds',
    );
  });
  it('buckets days since the last visit and finds due reminders in either unit', () => {
    const now = Date.UTC(2026, 5, 1);
    expect(daysSinceLastVisit((now - 3 * DAY) / 1000, now)).toBe(3);
    expect(daysSinceLastVisit(now - 3 * DAY, now)).toBe(3);
    expect(daysSinceLastVisit(0, now)).toBeNull();
    expect(visitAgeBucket((now - 40 * DAY) / 1000, now)).toBe('quarter');
    expect(visitAgeBucket(null, now)).toBe('never');
    expect(isReminderDue((now - 1000) / 1000, now)).toBe(true);
    expect(isReminderDue(now + DAY, now)).toBe(false);
    const list = [at(now / 1000 - 86_400, now / 1000 - 1), at(0, now + DAY), at(now - 200 * DAY)];
    expect(filterByVisit(list, { kind: 'due' }, now)).toEqual([list[0]]);
    expect(filterByVisit(list, { kind: 'age', bucket: 'never' }, now)).toEqual([list[1]]);
    expect(filterByVisit(list, { kind: 'age', bucket: 'older' }, now)).toEqual([list[2]]);
  });
});

describe.skipIf(!HAS_KEYCHAIN)('visit logging against the service', () => {
  let service: RunningService;
  let app: AppUnderTest;

  beforeAll(async () => {
    service = await startService({
      rate: 0,
      accounts: [
        { ...ACCOUNTS.seconds, customers: 8, seed: 3 },
        { ...ACCOUNTS.milliseconds, customers: 8, seed: 4 },
      ],
    });
    // The ms account: every timestamp as epoch milliseconds (another client's convention).
    for (const c of service.store.customers(ACCOUNTS.milliseconds.username)) {
      service.store.updateCustomerDirect(ACCOUNTS.milliseconds.username, c.id, {
        lastVisit: (c.lastVisit ?? 0) * 1000 || Date.UTC(2025, 0, 2),
        remindAt: (c.remindAt ?? 0) * 1000,
      });
    }
  });
  afterAll(async () => {
    await service.stop();
  });
  // Drops the answer of PUTs after the service got them (the service's reset-after fault would
  // also hit the GET that comes before each PUT, so the PUT would never be sent).
  let losePutAnswers = false;
  const lossyFetch: typeof fetch = async (input, init) => {
    const method = input instanceof Request ? input.method : (init?.method ?? 'GET');
    const response = await fetch(input, init);
    if (!losePutAnswers || method !== 'PUT') return response;
    await response.arrayBuffer();
    throw new TypeError('fetch failed', {
      cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }),
    });
  };

  beforeEach(async () => {
    losePutAnswers = false;
    service.configure({ allow: LOOPBACK });
    app = await startApp({ fetch: lossyFetch });
  });
  afterEach(async () => {
    await app.dispose();
  });

  for (const unit of ['seconds', 'milliseconds'] as const) {
    const account = ACCOUNTS[unit];
    const shown = (id: string): Customer => service.store.customer(account.username, id)!;
    const login = async () => {
      await app.ok('session:login', { baseUrl: service.url, ...account });
      await app.ok('sync:now');
    };
    const detected = (): TimeUnit => detectTimeUnit(service.store.customers(account.username));
    const inUnit = (ms: number) => (unit === 'seconds' ? Math.floor(ms / 1000) : ms);

    it(`${unit}: one visit online sets lastVisit in the account's unit, +1 visit, a dated note and a reminder`, async () => {
      await login();
      expect(detected()).toBe(unit);
      const before = service.store.customers(account.username)[0]!;
      const now = Date.now();
      const op = visitOp(
        before,
        { atMs: now, note: 'Met the buyer', reminder: { atMs: now + 7 * DAY, type: 'call' } },
        detected(),
        true,
      );
      await app.ok('outbox:enqueue', op);
      await syncUntilEmpty(app);
      const after = shown(before.id);
      expect(after.numVisits).toBe(before.numVisits + 1);
      expect(after.lastVisit).toBe(inUnit(now));
      expect(after.remindAt).toBe(inUnit(now + 7 * DAY));
      expect(after.remindType).toBe('call');
      expect(after.notes.endsWith(visitNoteLine(now, 'Met the buyer'))).toBe(true);
      expect(after.notes.startsWith(before.notes)).toBe(true);
    });

    it(`${unit}: visits logged offline, across a restart, count exactly once each when synced later`, async () => {
      await login();
      const before = service.store.customers(account.username)[1]!;
      service.configure({ allow: ['10.0.0.0/8'] }); // off the office network
      // What the renderer does: each visit is built on the record as shown (queued changes applied).
      let view: Customer = before;
      const times = [Date.now() - 60_000, Date.now() - 30_000, Date.now()];
      for (const atMs of times) {
        const op = visitOp(view, { atMs }, unit, true);
        await app.ok('outbox:enqueue', op);
        view = { ...view, ...applyChanges(view, op.payload) };
      }
      await app.ok('sync:now');
      expect(shown(before.id).numVisits).toBe(before.numVisits);
      await app.restart();
      service.configure({ allow: LOOPBACK });
      await syncUntilEmpty(app);
      const after = shown(before.id);
      expect(after.numVisits).toBe(before.numVisits + times.length);
      expect(after.lastVisit).toBe(inUnit(times.at(-1)!));
    });

    it(`${unit}: a visit whose PUT answer is lost is not counted twice`, async () => {
      await login();
      const before = service.store.customers(account.username)[2]!;
      const op: NewOp = visitOp(before, { atMs: Date.now() }, unit, true);
      losePutAnswers = true; // committed, then the answer is lost
      await app.ok('outbox:enqueue', op);
      await app.ok('sync:now');
      expect(shown(before.id).numVisits).toBe(before.numVisits + 1);
      expect((await app.ok('outbox:list')).length).toBe(1);
      losePutAnswers = false;
      await syncUntilEmpty(app);
      await app.ok('sync:now');
      expect(shown(before.id).numVisits).toBe(before.numVisits + 1);
    });
  }

  it('known limit: a visit counted on the service meanwhile by someone else is overwritten, and logged as a conflict', async () => {
    const account = ACCOUNTS.seconds;
    await app.ok('session:login', { baseUrl: service.url, ...account });
    await app.ok('sync:now');
    const before = service.store.customers(account.username)[3]!;
    service.configure({ allow: ['10.0.0.0/8'] });
    await app.ok('outbox:enqueue', visitOp(before, { atMs: Date.now() }, 'seconds', true));
    // Another client logs two visits while the rep is offline.
    service.store.updateCustomerDirect(account.username, before.id, {
      numVisits: before.numVisits + 2,
    });
    service.configure({ allow: LOOPBACK });
    await syncUntilEmpty(app);
    // numVisits is merged as a value (rep wins), not as a counter: see src-shared/visits.ts.
    expect(service.store.customer(account.username, before.id)!.numVisits).toBe(
      before.numVisits + 1,
    );
    const conflicts = await app.ok('conflicts:list');
    expect(conflicts.some((c) => c.customerId === before.id && c.field === 'numVisits')).toBe(true);
  });
});
