// Off the office network (the service answers 403) the status says so and every change stays
// queued. Then a field changed both on the service and in the app is shown in Conflicts with
// both values, and the rep's choice is what the service ends with (both choices). Conflicts are
// kept across a restart, and the top bar's count says so from the first moment: it showed "0"
// until the next conflict came, with two undecided ones waiting.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchApp, startTestService, type AppHandle, type TestService } from '../support/app';
import { signIn, syncNow, waitRows, waitSync, uniquelyNamed } from '../support/app-steps';
import { STATUS_PROBE, statusLog } from '../support/status-probe';

const USER = 'rep';
let service: TestService;
let app: AppHandle;
let first: { id: string; name: string };
let second: { id: string; name: string };

async function editField(name: string, field: string, value: string): Promise<void> {
  const { page } = app;
  await page.fill('input[aria-label="Search customers"]', name);
  await waitRows(page, 'Customers', 1);
  await page.click('[aria-label="Customers"] button.customer-row');
  // The panel of the previous customer may still be up: edit only once it shows this one.
  await expect.poll(() => page.textContent('aside[aria-label="Customer details"] h2')).toBe(name);
  await page.click('aside[aria-label="Customer details"] button:has-text("Edit")');
  await page.fill(`#ed-${field}`, value);
  await page.keyboard.press('Control+s');
  await page.waitForSelector('aside[data-editing]', { state: 'detached' });
}

beforeAll(async () => {
  service = await startTestService({ customers: 20, seed: 83 });
  app = await launchApp({ serviceUrl: service.url, pageProbe: STATUS_PROBE });
});

afterAll(async () => {
  await app?.close();
  await service?.stop();
});

describe('off the office network, then conflicts', () => {
  // One test in three steps: the conflicts are those of the edits queued off the network.
  it('signs in, keeps changes queued off the office network, then shows and settles conflicts', async () => {
    let { page } = app;
    await signIn(app, service);
    await waitRows(page, 'Customers', 20);
    await waitSync(page, 'synced');
    const all = service.store.customers(USER);
    const unique = uniquelyNamed(all);
    [first, second] = unique as unknown as [typeof first, typeof second];
    expect(second).toBeDefined();

    // Step 2: "Not on the office network", and every change stays queued.
    service.configure({ allow: ['10.0.0.0/8'] });
    await editField(first.name, 'phone', 'rep-phone-1');
    await editField(second.name, 'notes', 'rep notes 2');
    await syncNow(page);
    await waitSync(page, 'off-network');
    expect(await page.textContent('.sync-status')).toContain('Not on the office network');
    const ops = await app.call<Array<{ kind: string; state: string }>>('listOps');
    expect(ops.map((o) => o.kind)).toEqual(['updateCustomer', 'updateCustomer']);
    expect(ops.every((o) => o.state === 'pending')).toBe(true);
    expect(service.store.customer(USER, first.id)!.phone).not.toBe('rep-phone-1');
    expect(await page.getAttribute('.views button >> nth=0', 'data-count')).toBe('2');

    // Step 3: both values of a field changed on both sides are shown; the rep's choice applies.
    // Someone else changes the same fields on the service meanwhile.
    service.store.updateCustomerDirect(USER, first.id, { phone: 'server-phone-1' });
    service.store.updateCustomerDirect(USER, second.id, { notes: 'server notes 2' });
    service.configure({ allow: ['127.0.0.1/8', '::1'] });
    await syncNow(page);
    await expect.poll(async () => (await app.call<unknown[]>('listOps')).length).toBe(0);
    await page.click('.views button:has-text("Conflicts")');
    const shown = (field: string) => page.locator(`li.conflict[data-field="${field}"]`);
    let phone = shown('phone');
    let notes = shown('notes');
    await phone.waitFor();
    expect(await phone.locator('[data-value="rep"]').textContent()).toBe('rep-phone-1');
    expect(await phone.locator('[data-value="server"]').textContent()).toBe('server-phone-1');
    expect(await notes.locator('[data-value="server"]').textContent()).toBe('server notes 2');
    // By default the rep's value went out.
    expect(service.store.customer(USER, first.id)!.phone).toBe('rep-phone-1');
    const conflictsCount = () => page.getAttribute('.views button >> nth=1', 'data-count');
    expect(await conflictsCount()).toBe('2');

    // A restart: the two undecided conflicts are counted, and no other count shows meanwhile.
    await app.restart();
    page = app.page;
    await expect.poll(conflictsCount).toBe('2');
    const counts = (await statusLog(page)).map((e) => e.conflicts);
    expect(counts.filter((n) => n !== null && n !== 2)).toEqual([]);
    await page.click('.views button:has-text("Conflicts")');
    [phone, notes] = [shown('phone'), shown('notes')];
    await phone.waitFor();
    expect(await notes.locator('[data-value="rep"]').textContent()).toBe('rep notes 2');

    await phone.locator('input[value="server"]').check();
    await notes.locator('input[value="rep"]').check();
    // Each choice is a round trip to main and back (conflicts:changed): allow for a loaded machine.
    await expect.poll(() => phone.getAttribute('data-resolution')).toBe('server');
    await expect.poll(() => notes.getAttribute('data-resolution')).toBe('rep');
    await syncNow(page);
    await expect.poll(() => service.store.customer(USER, first.id)!.phone).toBe('server-phone-1');
    expect(service.store.customer(USER, second.id)!.notes).toBe('rep notes 2');
    await expect.poll(() => page.getAttribute('.views button >> nth=1', 'data-count')).toBe('0');
  });
});
