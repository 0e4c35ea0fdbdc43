// Records, in the page's own JavaScript context, what the page itself writes to and reads from
// the cache's `customers` store (IDBObjectStore put/add, and the records each getAll answers).
// A worker has its own IndexedDB objects, so what the cache worker does is not counted: a test
// can tell work done on the UI thread from work moved off it.
import type { Page } from 'playwright-core';

export interface CustomerIo {
  /** Records the page put or added into `customers`. */
  written: number;
  /** Records the page's getAll calls on `customers` answered, in all. */
  read: number;
  /** The most records one getAll answered. */
  largestRead: number;
}

type ProbeGlobal = { __customerIo?: CustomerIo };

/** Starts counting in the page now (it lasts until the page reloads). */
export async function recordCustomerIo(page: Page): Promise<void> {
  await page.evaluate(installCustomerIoProbe);
}

/** Counts from the start of every page the context loads from now on (before the app's scripts). */
export async function recordCustomerIoOnLoad(page: Page): Promise<void> {
  await page.context().addInitScript(installCustomerIoProbe);
}

function installCustomerIoProbe(): void {
  {
    const g = globalThis as unknown as ProbeGlobal;
    if (g.__customerIo) return;
    const io: CustomerIo = { written: 0, read: 0, largestRead: 0 };
    g.__customerIo = io;
    const store = IDBObjectStore.prototype;
    const { put, add, getAll } = store;
    store.put = function (this: IDBObjectStore, ...args: Parameters<typeof put>) {
      if (this.name === 'customers') io.written++;
      return put.apply(this, args);
    };
    store.add = function (this: IDBObjectStore, ...args: Parameters<typeof add>) {
      if (this.name === 'customers') io.written++;
      return add.apply(this, args);
    };
    store.getAll = function (this: IDBObjectStore, ...args: Parameters<typeof getAll>) {
      const request = getAll.apply(this, args);
      if (this.name === 'customers') {
        request.addEventListener('success', () => {
          const n = (request.result as unknown[]).length;
          io.read += n;
          io.largestRead = Math.max(io.largestRead, n);
        });
      }
      return request;
    };
  }
}

/** What the page did since `recordCustomerIo` (or the last `resetCustomerIo`). */
export function customerIo(page: Page): Promise<CustomerIo> {
  return page.evaluate(() => ({ ...(globalThis as unknown as ProbeGlobal).__customerIo! }));
}

export async function resetCustomerIo(page: Page): Promise<void> {
  await page.evaluate(() => {
    const io = (globalThis as unknown as ProbeGlobal).__customerIo!;
    Object.assign(io, { written: 0, read: 0, largestRead: 0 });
  });
}
