// Main's data travels to the cache worker without the page relaying it: through the browser
// runner (the same road the app uses, src-shared/data-road.ts), a first sync's records reach
// the worker over its data port, which the runner joins to a loopback socket
// (scripts/browser-runner/data-socket.ts), and the page hears of each piece from the worker (with the text of a
// snapshot's customers, which the list keeps: cache/snapshot-stage.ts). A reload of
// the page while the pieces are on their way, or a restart of the whole app, loses nothing: the
// list ends with every customer of the account, once. Electron's half in the page (its preload
// posts main's MessagePort to the window; src-main/shell/data-channel.ts) is driven here by
// posting a port the same way: the page hands it to the cache worker, which answers on it and
// applies what main sends on it.
import { afterEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { WebSocket } from 'ws';
import { launchApp, startTestService, type AppHandle, type TestService } from '../support/app';
import { PIECE_ITEMS, splitEvent } from '../../src-shared/data-pieces';
import { DATA_PORT_CHANNEL, DATA_PORT_READY } from '../../src-shared/data-port';
import type { EventOf } from '../../src-shared/ipc-contract';
import type { RoadMessage } from '../../src-shared/data-road';
import { RELAY_PATH } from '../../scripts/browser-runner/data-socket-names';
import { recordStatus, signIn, statusLog, waitSync } from '../support/app-steps';

const COUNT = 20_000;

let service: TestService | undefined;
let app: AppHandle | undefined;

afterEach(async () => {
  await app?.close();
  await service?.stop();
  app = undefined;
  service = undefined;
});

interface PageData {
  /** Customer records the page's own listeners of main's data events received. */
  records: number;
  /** Characters the page's JSON.parse read. */
  parsed: number;
  /** The longest text one JSON.parse read. */
  largest: number;
}

/**
 * Counts, in the page, the records of the road's messages that came through the page
 * ('data:road': the path every record took before the data channel) and the JSON the page
 * parses (the runner delivers every event as a JSON string the page parses).
 */
async function recordPageData(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen: PageData = { records: 0, parsed: 0, largest: 0 };
    const g = globalThis as unknown as {
      __pageData: PageData;
      fieldmap: { on(event: string, listener: (payload: unknown) => void): () => void };
    };
    g.__pageData = seen;
    const parse = JSON.parse;
    JSON.parse = function (text: string, reviver?: (key: string, value: unknown) => unknown) {
      seen.parsed += String(text).length;
      seen.largest = Math.max(seen.largest, String(text).length);
      return parse.call(this, text, reviver) as unknown;
    };
    type Piece = { items?: unknown[]; path?: string[] };
    g.fieldmap.on('data:road', (m) => {
      const piece = (m as { piece?: Piece }).piece;
      if (piece?.path?.[0] === 'customers') seen.records += piece.items?.length ?? 0;
    });
  });
}

const pageData = (page: Page) =>
  page.evaluate(() => (globalThis as unknown as { __pageData: PageData }).__pageData);

const rows = (page: Page) => page.getAttribute('[aria-label="Customers"]', 'data-rows');

/** Resolves once the page shows the first sync's pieces arriving ("Receiving customers: …"). */
function receiving(page: Page): Promise<unknown> {
  return page.waitForFunction(
    () =>
      document.querySelector('.sync-status .text')?.textContent?.startsWith('Receiving') ?? false,
    undefined,
    { polling: 'raf' },
  );
}

describe('the data channel from main to the cache worker', () => {
  it('brings a first sync into the cache without the page relaying its records', async () => {
    service = await startTestService({ customers: COUNT, seed: 31 });
    app = await launchApp({ serviceUrl: service.url });
    const { page } = app;
    await recordPageData(page);
    // A stream that starts before the worker listens goes through the page (as under Electron).
    await expect.poll(() => app!.dataChannelOpen()).toBe(true);
    await signIn(app, service);
    await expect.poll(() => rows(page)).toBe(String(COUNT));
    await waitSync(page, 'synced');
    const seen = await pageData(page);
    // No record came to the page as a data event: the worker had them from main.
    expect(seen.records).toBe(0);
    // The page parses the snapshot's customers once, as the worker hands on each piece's text
    // for the list to keep (cache/snapshot-stage.ts), a piece at a time: never the whole ~15 MB.
    const text = JSON.stringify(service.store.customers(service.account.username)).length;
    expect(seen.parsed).toBeGreaterThan(text * 0.9);
    expect(seen.parsed).toBeLessThan(text * 1.1 + 200_000);
    expect(seen.largest).toBeLessThan((text / COUNT) * PIECE_ITEMS * 1.2 + 10_000);
  });

  // Main's state and its data take one road to the cache worker (src-shared/data-road.ts), and
  // the page shows what the worker applied: held on the socket, nothing of a sign-in shows, not
  // even while main is done; let go, "Synced" comes only over the whole list.
  it('never reads synced while main is done and its data has not reached the worker', async () => {
    service = await startTestService({ customers: 500, seed: 37 });
    app = await launchApp({ serviceUrl: service.url });
    const { page } = app;
    await recordStatus(page);
    // Held on the socket: the road takes it, not the page (the worker listens by now).
    await expect.poll(() => app!.dataChannelOpen()).toBe(true);
    const release = app.holdData();
    await page.fill('#si-url', service.url);
    await page.fill('#si-user', service.account.username);
    await page.fill('#si-pass', service.account.password);
    await page.click('form button[type=submit]');
    await expect
      .poll(async () => (await app!.call<{ kind: string }>('syncState')).kind)
      .toBe('synced');
    // A frame after main was done: nothing main said has reached the page.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
    expect((await statusLog(page)).filter((e) => e.kind === 'synced')).toEqual([]);
    release();
    await expect.poll(() => rows(page)).toBe('500');
    await waitSync(page, 'synced');
    const claims = (await statusLog(page)).filter(
      (e) => e.kind === 'synced' || e.tone === 'ok' || e.text.startsWith('Synced'),
    );
    expect(claims.length).toBeGreaterThan(0);
    expect(claims.filter((e) => e.rows !== 500)).toEqual([]);
  });

  it('loses nothing when the page reloads while the pieces are on their way', async () => {
    service = await startTestService({ customers: COUNT, seed: 32 });
    app = await launchApp({ serviceUrl: service.url });
    const { page } = app;
    const started = receiving(page);
    await signIn(app, service);
    await started;
    await page.reload();
    await expect.poll(() => rows(page)).toBe(String(COUNT));
    await waitSync(page, 'synced');
  });

  it('loses nothing when the app restarts while the pieces are on their way', async () => {
    service = await startTestService({ customers: COUNT, seed: 33 });
    app = await launchApp({ serviceUrl: service.url });
    const started = receiving(app.page);
    await signIn(app, service);
    await started;
    await app.restart();
    const { page } = app;
    await expect.poll(() => rows(page)).toBe(String(COUNT));
    await waitSync(page, 'synced');
    expect(await rows(page)).toBe(String(COUNT));
  });

  it("takes Electron's data port from its own window and applies what main sends on it", async () => {
    service = await startTestService({ customers: 3_000, seed: 34 });
    app = await launchApp({ serviceUrl: service.url });
    const { page } = app;
    await signIn(app, service);
    await expect.poll(() => rows(page)).toBe('3000');
    await waitSync(page, 'synced');
    const account = await app.call<{ accountKey: string }>('currentAccount');
    const gone = await page.getAttribute('[aria-label="Customers"] [data-id]', 'data-id');
    const delta: EventOf<'data:delta'> = {
      accountKey: account.accountKey,
      pulledAt: Date.now(),
      base: null,
      present: null,
      user: null,
      customers: { upserted: [], deleted: [gone!] },
      routes: { upserted: [], deleted: [] },
      territories: { upserted: [], deleted: [] },
    };
    // A road of its own (newer than main's): its session first, then the delta's pieces.
    const road = 1_000_000;
    const messages: RoadMessage[] = [
      { road, seq: 1, event: 'session:changed', payload: account },
      ...splitEvent('port-1', 'data:delta', delta, PIECE_ITEMS, true)!.map((piece, i) => ({
        road,
        seq: i + 2,
        piece,
      })),
    ];
    // What the preload does with main's port, then main's side of the port.
    const answer = await page.evaluate(
      async ([channel, sent]) => {
        const { port1, port2 } = new MessageChannel();
        const ready = new Promise((resolve) => (port1.onmessage = (e) => resolve(e.data)));
        window.postMessage(channel, '*', [port2]);
        const data = await ready;
        for (const piece of sent) port1.postMessage(piece);
        return data;
      },
      [DATA_PORT_CHANNEL, messages.map((m) => JSON.stringify(m))] as const,
    );
    expect(answer).toBe(DATA_PORT_READY);
    await expect.poll(() => rows(page)).toBe('2999');
    expect(await page.locator(`[aria-label="Customers"] [data-id="${gone}"]`).count()).toBe(0);
  });

  it("the runner's data socket opens only for the app's own top frame, once, and takes nothing but the worker's answer", async () => {
    service = await startTestService({ customers: 500, seed: 35 });
    app = await launchApp({ serviceUrl: service.url });
    const { page, context } = app;
    await context.route('http://evil.localhost/**', (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: '<!doctype html><iframe src="http://fieldmap.localhost/framed.html"></iframe>',
      }),
    );
    const ask = (target: Pick<Page, 'evaluate'>) =>
      target.evaluate(() =>
        (
          globalThis as unknown as { __fieldmapDataSocket(): Promise<string | null> }
        ).__fieldmapDataSocket(),
      );
    const evil = await context.newPage();
    await evil.goto('http://evil.localhost/');
    const frame = evil.frames().find((f) => f.url().startsWith('http://fieldmap.localhost/'));
    // A foreign page, and a page of the app's own origin framed inside it: no address.
    expect(await ask(evil)).toBeNull();
    expect(await ask(frame!)).toBeNull();
    await evil.close();

    /** 'open', or the HTTP status the socket's handshake was refused with. */
    const connect = (url: string, origin = 'http://fieldmap.localhost') =>
      new Promise<{ socket: WebSocket; result: 'open' | number }>((resolve) => {
        const socket = new WebSocket(url, { origin });
        socket.on('open', () => resolve({ socket, result: 'open' }));
        socket.on('unexpected-response', (_req, res) =>
          resolve({ socket, result: res.statusCode! }),
        );
      });
    const address = (await ask(page))!;
    const match = /^(ws:\/\/127\.0\.0\.1:\d+)\/([0-9a-f]{32})\/([0-9a-f]{32})$/.exec(address)!;
    expect(match).not.toBeNull();
    const [, origin, token, id] = match;
    const other = '0'.repeat(32);
    expect((await connect(`${origin}/${other}/${id}`)).result).toBe(401);
    expect((await connect(`${origin}/${token}/${other}`)).result).toBe(401);
    // Only from the app's origin.
    expect((await connect(address, 'http://evil.localhost')).result).toBe(401);
    const first = await connect(address);
    expect(first.result).toBe('open');
    // An address opens once.
    expect((await connect(address)).result).toBe(401);
    // Anything but the cache worker's answer closes the socket.
    const closed = new Promise((resolve) => first.socket.on('close', resolve));
    first.socket.send('{"stream":"x"}');
    await closed;

    // The app lost its socket to this test: main's pieces go through the page, and arrive.
    await signIn(app, service);
    await expect.poll(() => rows(page)).toBe('500');
    await waitSync(page, 'synced');
  });

  it('uses the data port of a page that loaded while the browser was offline, once back online', async () => {
    service = await startTestService({ customers: 3_000, seed: 36 });
    app = await launchApp({ serviceUrl: service.url, offline: true });
    const { page } = app;
    await recordPageData(page);
    // The relay worker's first try to open the socket has failed (the browser is offline).
    const relay = async () => {
      const worker = page.workers().find((w) => w.url().endsWith(RELAY_PATH));
      return worker?.evaluate(() => (self as unknown as { failedAttempts: number }).failedAttempts);
    };
    await expect.poll(relay).toBeGreaterThan(0);
    await app.setOffline(false);
    // The relay tries again by itself (without its retry the socket never opens: checked).
    await expect.poll(() => app!.dataChannelOpen()).toBe(true);
    await signIn(app, service);
    await expect.poll(() => rows(page)).toBe('3000');
    await waitSync(page, 'synced');
    // The runner's socket could not open offline; it was tried again, and main's records
    // reached the worker over it, none through the page.
    expect((await pageData(page)).records).toBe(0);
  });
});
