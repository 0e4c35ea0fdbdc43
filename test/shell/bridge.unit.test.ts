// window.fieldmap as the preload builds it, over the real IPC router as its transport.
import { describe, expect, it } from 'vitest';
import { errorInfo } from '../../src-shared/errors';
import {
  eventChannels,
  FieldmapError,
  invokeChannels,
  toFieldmapError,
} from '../../src-shared/ipc-contract';
import { buildFieldmapApi, type SubscribeTransport } from '../../src-preload/bridge';
import { APP_ORIGIN, createIpcRouter, topFrameOfOrigins } from '../../src-main/ipc/handle';
import { handlerTable } from './handler-table';

function setup(userActive = false) {
  const seen: Array<{ channel: string; request: unknown }> = [];
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const router = createIpcRouter(
    handlerTable({
      'accounts:list': async () => [],
      'shell:open-external': async (request) => {
        seen.push({ channel: 'shell:open-external', request });
        return true;
      },
      'sync:now': async () => {
        throw { info: errorInfo('Offline') };
      },
    }),
    { isTrustedSender: topFrameOfOrigins([APP_ORIGIN]), log: () => {} },
  );
  const subscribe: SubscribeTransport = (event, listener) => {
    const set = listeners.get(event) ?? new Set();
    set.add(listener);
    listeners.set(event, set);
    return () => set.delete(listener);
  };
  const api = buildFieldmapApi(
    (channel, request) =>
      router.dispatch(channel, { url: 'app://fieldmap/index.html', isTopFrame: true }, request),
    subscribe,
    { userActivation: () => userActive },
  );
  const fire = (event: string, payload: unknown) =>
    listeners.get(event)?.forEach((l) => l(payload));
  return { api, seen, listeners, fire };
}

describe('buildFieldmapApi', () => {
  it('has one method per contract channel plus on, and is frozen', () => {
    const { api } = setup();
    const methods = Object.values(invokeChannels).map((c) => c.method);
    expect(Object.keys(api).sort()).toEqual([...methods, 'on'].sort());
    expect(Object.isFrozen(api)).toBe(true);
    expect(() => {
      (api as unknown as Record<string, unknown>).listAccounts = () => 'hijacked';
    }).toThrow(TypeError);
  });

  it('unwraps ok results and rejects with plain data that contextBridge can copy', async () => {
    const { api } = setup();
    expect(await api.listAccounts()).toEqual([]);
    const rejected = await api.syncNow().catch((e: unknown) => e);
    // Exactly what structured clone keeps: no prototype or custom Error fields to lose.
    expect(structuredClone(rejected)).toEqual({
      name: 'FieldmapError',
      message: errorInfo('Offline').message,
      info: errorInfo('Offline'),
    });
    const error = toFieldmapError(structuredClone(rejected));
    expect(error).toBeInstanceOf(FieldmapError);
    expect(error.info).toEqual(errorInfo('Offline'));
    const refused = await api
      .login({ baseUrl: 'x', username: '', password: 'p' })
      .catch((e: unknown) => e);
    expect(toFieldmapError(refused).info).toMatchObject({
      kind: 'InvalidRequest',
      field: 'username',
    });
  });

  it('turns a failed transport or a garbled answer into an Internal error', async () => {
    const api = buildFieldmapApi(
      () => Promise.reject(new Error('No handler registered')),
      () => () => {},
    );
    const error = toFieldmapError(await api.listAccounts().catch((e: unknown) => e));
    expect(error.info.kind).toBe('Internal');
    expect(error.message).not.toContain('No handler');
    const garbage = buildFieldmapApi(
      async () => 'not a result',
      () => () => {},
    );
    expect(toFieldmapError(await garbage.listAccounts().catch((e: unknown) => e)).info.kind).toBe(
      'Internal',
    );
  });

  it('toFieldmapError recognises only real error info', () => {
    const info = errorInfo('Unauthorized', { status: 401 });
    expect(toFieldmapError(new FieldmapError(info)).info).toEqual(info);
    expect(toFieldmapError({ info }).info).toEqual(info);
    expect(toFieldmapError(new Error('x')).info.kind).toBe('Internal');
    expect(toFieldmapError({ info: { kind: 'Nope', message: 'x' } }).info.kind).toBe('Internal');
    expect(toFieldmapError(undefined).info.kind).toBe('Internal');
  });

  it('openExternal carries the user activation the bridge sees, not what the page claims', async () => {
    const idle = setup(false);
    await idle.api.openExternal({ url: 'https://example.com/', userActivated: true });
    expect(idle.seen).toEqual([
      {
        channel: 'shell:open-external',
        request: { url: 'https://example.com/', userActivated: false },
      },
    ]);
    const clicked = setup(true);
    await clicked.api.openExternal({ url: 'https://example.com/' });
    expect(clicked.seen[0]?.request).toEqual({ url: 'https://example.com/', userActivated: true });
  });

  it('on() subscribes to contract events only, hands listeners the payload, and unsubscribes', () => {
    const { api, fire } = setup();
    const got: unknown[] = [];
    const off = api.on('session:changed', (payload) => got.push(payload));
    fire('session:changed', null);
    off();
    fire('session:changed', 'late');
    expect(got).toEqual([null]);
    expect(() => api.on('secrets:leak' as keyof typeof eventChannels, () => {})).toThrow(
      /Unknown Fieldmap event/,
    );
    expect(() => api.on('__proto__' as keyof typeof eventChannels, () => {})).toThrow(
      /Unknown Fieldmap event/,
    );
  });
});
