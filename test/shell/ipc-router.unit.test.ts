// The IPC router every renderer call goes through, in Electron and in the browser runner.
import { describe, expect, it } from 'vitest';
import { errorInfo } from '../../src-shared/errors';
import {
  APP_ORIGIN,
  createIpcRouter,
  originOf,
  topFrameOfOrigins,
  type SenderFrameInfo,
} from '../../src-main/ipc/handle';
import { handlerTable } from './handler-table';

const APP: SenderFrameInfo = { url: 'app://fieldmap/index.html', isTopFrame: true };
const account = {
  accountKey: 'http://127.0.0.1:1#demo',
  baseUrl: 'http://127.0.0.1:1',
  username: 'demo',
  demo: false,
};

function router(overrides: Parameters<typeof handlerTable>[0] = {}) {
  const log: string[] = [];
  const calls: unknown[] = [];
  const r = createIpcRouter(
    handlerTable({
      'session:login': async (request) => {
        calls.push(request);
        return account;
      },
      ...overrides,
    }),
    { isTrustedSender: topFrameOfOrigins([APP_ORIGIN]), log: (message) => log.push(message) },
  );
  return { r, log, calls };
}

const login = { baseUrl: 'http://127.0.0.1:1', username: 'demo', password: 'hunter2-secret' };

describe('IPC router', () => {
  it('a valid call from the app main frame reaches its handler', async () => {
    const { r, calls } = router();
    expect(await r.dispatch('session:login', APP, login)).toEqual({ ok: true, value: account });
    expect(calls).toEqual([login]);
  });

  it('refuses a bad payload with an error naming the field, without calling the handler', async () => {
    const { r, calls, log } = router();
    const result = await r.dispatch('session:login', APP, { ...login, username: 42 });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.kind).toBe('InvalidRequest');
    expect(result.error.field).toBe('username');
    expect(result.error.message).toContain('"username"');
    expect(calls).toEqual([]);
    // Refusals are logged without the payload (it holds a password here).
    expect(log.join('\n')).toContain('session:login');
    expect(log.join('\n')).not.toContain('hunter2');
  });

  it('names nested fields and unknown keys', async () => {
    const { r } = router();
    const extra = await r.dispatch('session:login', APP, { ...login, admin: true });
    expect(extra).toMatchObject({ ok: false, error: { kind: 'InvalidRequest', field: 'admin' } });
    const nested = await r.dispatch('outbox:edit', APP, {
      opId: 'op1',
      payload: { latitude: 'north' },
    });
    expect(nested).toMatchObject({ ok: false, error: { kind: 'InvalidRequest' } });
    if (!nested.ok) expect(nested.error.field).toMatch(/^payload/);
    const missing = await r.dispatch('conflicts:resolve', APP, {
      conflictId: 'c1',
      choice: 'both',
    });
    expect(missing).toMatchObject({ ok: false, error: { field: 'choice' } });
    const notObject = await r.dispatch('session:login', APP, 'login please');
    expect(notObject).toMatchObject({ ok: false, error: { kind: 'InvalidRequest' } });
  });

  it('refuses a child frame, another origin and an unknown frame', async () => {
    const { r, calls, log } = router();
    const senders: SenderFrameInfo[] = [
      { url: 'app://fieldmap/index.html', isTopFrame: false },
      { url: 'https://evil.example/page', isTopFrame: true },
      { url: 'app://fieldmap.evil/index.html', isTopFrame: true },
      { url: 'file:///app/out/renderer/index.html', isTopFrame: true },
      { url: undefined, isTopFrame: true },
    ];
    for (const sender of senders) {
      const result = await r.dispatch('session:login', sender, login);
      expect(result, String(sender.url)).toEqual({
        ok: false,
        error: expect.objectContaining({
          kind: 'InvalidRequest',
          message: `Refused: call from a foreign frame (${sender.url ?? 'unknown frame'})`,
        }),
      });
    }
    expect(calls).toEqual([]);
    expect(log.filter((line) => line.includes('foreign frame'))).toHaveLength(senders.length);
  });

  it('refuses an unknown channel, including inherited property names', async () => {
    const { r } = router();
    for (const channel of ['secrets:read', '__proto__', 'toString', 'constructor']) {
      expect(await r.dispatch(channel, APP, undefined), channel).toMatchObject({
        ok: false,
        error: { kind: 'InvalidRequest', message: expect.stringContaining('unknown channel') },
      });
    }
  });

  it('passes taxonomy errors through and hides everything else as Internal', async () => {
    const info = errorInfo('NotAllowListed', { status: 403 });
    const { r, log } = router({
      'sync:now': async () => {
        throw Object.assign(new Error('403'), { info: { ...info, secret: 'x' } });
      },
      'accounts:list': async () => {
        throw Object.assign(new Error('boom with password hunter2'), {
          headers: { authorization: 'Basic aHVudGVyMg==' },
        });
      },
    });
    const passed = await r.dispatch('sync:now', APP, undefined);
    expect(passed).toEqual({ ok: false, error: info });
    const hidden = await r.dispatch('accounts:list', APP, undefined);
    expect(hidden).toEqual({ ok: false, error: errorInfo('Internal') });
    expect(JSON.stringify(hidden)).not.toContain('hunter2');
    expect(log.join('\n')).not.toMatch(/hunter2|aHVudGVyMg/);
    expect(log.join('\n')).toContain('accounts:list failed');
  });

  it('a browser-runner origin can be allowed explicitly', async () => {
    const check = topFrameOfOrigins(['http://127.0.0.1:5173']);
    expect(check({ url: 'http://127.0.0.1:5173/index.html', isTopFrame: true })).toBe(true);
    expect(check({ url: 'http://127.0.0.1:5174/index.html', isTopFrame: true })).toBe(false);
    expect(check(APP)).toBe(false);
  });

  it('originOf rebuilds origins of non-special schemes', () => {
    expect(originOf('app://fieldmap/index.html')).toBe('app://fieldmap');
    expect(originOf('https://a.example:8443/x')).toBe('https://a.example:8443');
    expect(originOf('about:blank')).toBeNull();
    expect(originOf('::')).toBeNull();
  });
});
