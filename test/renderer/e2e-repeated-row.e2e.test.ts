// A service that lists one customer twice (src-service's `repeatedRow` PHP habit, a JOIN with two
// matching rows), end to end: the real main services and the built renderer against the
// reference service. The first sync streams 4,001 entries of 4,000 customers to the cache worker;
// it is saved (each id once), the list shows every customer once and the status bar reaches
// "synced" instead of staying at "Saving n of m". The next sync's delta is applied on top.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchApp, startTestService, type AppHandle, type TestService } from '../support/app';
import { signIn, syncNow, syncState } from '../support/app-steps';

let service: TestService;
let app: AppHandle;

/** Bounded waits: a save that never ends fails the test rather than hanging it. */
const BOUND = { timeout: 90_000 };
const rows = () => app.page.getAttribute('[aria-label="Customers"]', 'data-rows');

beforeAll(async () => {
  service = await startTestService({
    customers: 4_000,
    seed: 41,
    variants: { repeatedRow: 'first-again' },
  });
  app = await launchApp({ serviceUrl: service.url });
});

afterAll(async () => {
  await app?.close();
  await service?.stop();
});

describe('a customers list that repeats a row', () => {
  it('is saved on the first sync and the next: every customer once, and "synced"', async () => {
    const customers = () => service.store.customers('rep').length;
    expect(customers()).toBe(4_000);
    await signIn(app, service);
    await expect.poll(rows, BOUND).toBe('4000');
    await expect.poll(() => syncState(app.page), BOUND).toBe('synced');
    expect(await app.page.textContent('.sync-status')).not.toContain('Saving');

    service.store.createCustomerDirect('rep', { name: 'Added later', latitude: 1, longitude: 2 });
    await syncNow(app.page);
    await expect.poll(rows, BOUND).toBe('4001');
    await expect.poll(() => syncState(app.page), BOUND).toBe('synced');
  });
});
