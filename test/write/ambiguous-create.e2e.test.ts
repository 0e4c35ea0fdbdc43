// A new customer whose create may or may not have reached a service that stores values in its
// own form: while its arrival is unconfirmed the Changes view says it is checking; when new
// records only look like it, the rep is asked "Is this the customer you created?" with them.
// Choosing one adopts its id (nothing sent again); "None of these: create it" sends it again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchApp, startTestService, type AppHandle, type TestService } from '../support/app';
import { signIn } from '../support/app-steps';
import { testBoundMs } from '../support/until';

const USER = 'rep';
const CUSTOMERS = /^\/api\/v1\/customers$/;
let service: TestService;
let app: AppHandle;
/** Each test's bound is its lane's (test/support/lanes.ts); every wait inside defaults to it. */
const PATIENCE = testBoundMs();

async function createCustomer(fields: Record<string, string>): Promise<void> {
  const { page } = app;
  await page.keyboard.press('Escape');
  await page.click('button:has-text("New customer")');
  await page.waitForSelector('aside[data-editing="new"]');
  for (const [field, value] of Object.entries(fields)) await page.fill(`#ed-${field}`, value);
  await page.click('button:has-text("Create customer")');
  await page.waitForSelector('aside[data-editing]', { state: 'detached' });
  // The editor took the side panel's place: back to the Changes view.
  if ((await page.locator('aside.side-panel.changes').count()) === 0) {
    await page.click('.views button >> nth=0');
  }
  await page.waitForSelector('aside.side-panel.changes');
}

/**
 * Creates a customer in the UI; its POST meets `fault` and, while the list that checks for it
 * is held, `meanwhile` runs on the service. Resolves once the create needs the rep.
 */
async function ambiguousCreate(
  fields: Record<string, string>,
  fault: { errorAfterCommitRate: number } | { errorRate: number },
  meanwhile: () => void,
): Promise<void> {
  const post = service.hold('POST', CUSTOMERS);
  await createCustomer(fields);
  await post.arrived;
  // The list after the POST (the round's list before it has gone by now) waits for us.
  const list = service.hold('GET', CUSTOMERS);
  service.configure({ faults: { ...fault, seed: 5 } });
  post.release();
  await list.arrived;
  service.configure({ faults: { errorAfterCommitRate: 0, errorRate: 0 } });
  // Sent, answer an error: the rep is told the app is checking whether it arrived.
  await expect
    .poll(() => app.page.locator('aside.side-panel.changes .checking').allTextContents())
    .toEqual(['Checking whether 1 new customer arrived on the service.']);
  meanwhile();
  list.release();
  await app.page.locator('[aria-label="Is this the customer you created?"]').waitFor();
}

beforeAll(async () => {
  service = await startTestService({
    customers: 10,
    seed: 91,
    variants: { store: 'normalising' },
  });
  app = await launchApp({ serviceUrl: service.url });
  // Signed in, synced, the Changes view open: where each test starts.
  await signIn(app, service);
  await app.page.waitForSelector('.sync-status[data-sync="synced"]');
  await app.page.click('.views button >> nth=0');
  await app.page.waitForSelector('aside.side-panel.changes');
});

afterAll(async () => {
  await app?.close();
  await service?.stop();
});

describe('a create the app cannot tell apart', () => {
  it(
    'offers the look-alike record; choosing it adopts its id without a second POST',
    async () => {
      const { page } = app;
      const before = service.store.customers(USER).length;
      await ambiguousCreate(
        { name: '  Rosa   Vik ', city: 'bergen' },
        { errorAfterCommitRate: 1 },
        () => {
          // Committed; someone edits the new record before the app looks.
          const record = service.store.customers(USER).find((c) => c.name === 'Rosa Vik')!;
          service.store.updateCustomerDirect(USER, record.id, { phone: '555-0199' });
        },
      );
      const record = service.store.customers(USER).find((c) => c.name === 'Rosa Vik')!;
      const offered = page.locator(`[data-candidate="${record.id}"]`);
      expect(await offered.locator('.name').textContent()).toBe('Rosa Vik');
      expect(await offered.textContent()).toContain('555-0199');
      expect(await page.locator('.checking').count()).toBe(0);

      await offered.locator('button:has-text("This is it")').click();
      await expect.poll(async () => (await app.call<unknown[]>('listOps')).length).toBe(0);
      expect(service.store.customers(USER)).toHaveLength(before + 1);
      // One POST, whatever spelling of the name the editor sent.
      const posts = Object.entries(service.customerPosts());
      expect(posts.filter(([name]) => name.replace(/\s+/g, ' ').trim() === 'Rosa Vik')).toEqual([
        [expect.any(String), 1],
      ]);
    },
    PATIENCE,
  );

  it(
    '"None of these: create it" sends it again, the only way after ambiguity',
    async () => {
      const { page } = app;
      const before = service.store.customers(USER).length;
      await ambiguousCreate({ name: 'Tia Moe', city: 'Oslo' }, { errorRate: 1 }, () => {
        // Not committed; someone else creates a look-alike meanwhile.
        service.store.createCustomerDirect(USER, { name: 'Tia Moe', city: 'Tromsø' });
      });
      const group = page.locator('[aria-label="Is this the customer you created?"]');
      expect(await group.locator('.candidate .place').allTextContents()).toEqual(['Tromsø']);
      expect(service.customerPosts()['Tia Moe']).toBeUndefined();

      await group.locator('button:has-text("None of these: create it")').click();
      await expect.poll(async () => (await app.call<unknown[]>('listOps')).length).toBe(0);
      expect(service.customerPosts()['Tia Moe']).toBe(1);
      expect(service.store.customers(USER).filter((c) => c.name === 'Tia Moe')).toHaveLength(2);
      expect(service.store.customers(USER)).toHaveLength(before + 2);
    },
    PATIENCE,
  );
});
