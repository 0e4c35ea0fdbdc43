// Issue 26's trial: offline, three edits, a restart, online until "Synced", then a restart at
// once. The restart's first sync must go to the cache as a delta over the pull it holds: prints
// on disk older than that pull made the cache refuse it, and main sent the whole account again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SyncEngine } from '../../src-main/core/sync/engine';
import { launchApp, startTestService, type AppHandle, type TestService } from '../support/app';
import { signIn, waitRows, waitSync, uniquelyNamed } from '../support/app-steps';

const USER = 'rep';
let service: TestService;
let app: AppHandle;

beforeAll(async () => {
  service = await startTestService({ customers: 20, seed: 37 });
  app = await launchApp({ serviceUrl: service.url });
});

afterAll(async () => {
  await app?.close();
  await service?.stop();
});

async function editPhone(name: string, phone: string): Promise<void> {
  const { page } = app;
  await page.fill('input[aria-label="Search customers"]', name);
  await waitRows(page, 'Customers', 1);
  await page.click('[aria-label="Customers"] button.customer-row');
  await expect.poll(() => page.textContent('aside[aria-label="Customer details"] h2')).toBe(name);
  await page.click('aside[aria-label="Customer details"] button:has-text("Edit")');
  await page.fill('#ed-phone', phone);
  await page.click('button:has-text("Save changes")');
  await page.waitForSelector('aside[data-editing]', { state: 'detached' });
}

const engine = () =>
  (app.services.sessions.session?.runtime.engine as SyncEngine | undefined) ?? null;

describe('a restart right after a reconnect sync', () => {
  it('sends the cache a delta, not the whole account again', async () => {
    const { page } = app;
    await signIn(app, service);
    await waitRows(page, 'Customers', 20);
    await waitSync(page, 'synced');
    const all = service.store.customers(USER);
    const unique = uniquelyNamed(all);
    const targets = unique.slice(0, 3);
    expect(targets).toHaveLength(3);

    await app.setOffline(true);
    for (const [i, c] of targets.entries()) await editPhone(c.name, `555-010${i}`);
    await page.fill('input[aria-label="Search customers"]', '');
    await app.restart();
    await waitSync(app.page, 'offline');
    await app.setOffline(false);
    await expect.poll(() => app.call<unknown[]>('listOps')).toEqual([]);
    await waitSync(app.page, 'synced');

    // At once: cut the network first only so that the next start waits for the test.
    await app.setOffline(true);
    await app.restart();
    await waitSync(app.page, 'offline');
    const running = engine();
    expect(running).not.toBeNull();
    const resends: number[] = [];
    const resend = running!.resendSnapshot.bind(running);
    running!.resendSnapshot = (newerThan) => {
      const sent = resend(newerThan);
      if (sent) resends.push(newerThan ?? -1);
      return sent;
    };
    await app.setOffline(false);
    await waitSync(app.page, 'synced');
    await waitRows(app.page, 'Customers', 20);
    expect(resends).toEqual([]);
    expect(targets.map((c) => service.store.customer(USER, c.id)?.phone)).toEqual([
      '555-0100',
      '555-0101',
      '555-0102',
    ]);
  });
});
