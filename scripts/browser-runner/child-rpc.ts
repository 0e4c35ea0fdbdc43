// Calls both ways over a Node IPC channel (child_process.fork's): the harness calls the child's
// runner (setOffline, close, memory), the child calls what stays in the harness's process (the
// credential store, the answers a test gives for the rep). Messages are JSON.
export type Handlers = Record<string, (...args: never[]) => unknown>;

type Message =
  | { rpc: 'call'; id: number; method: string; args: unknown[] }
  | { rpc: 'result'; id: number; value: unknown }
  | { rpc: 'error'; id: number; message: string };

export interface Channel {
  send(message: unknown): void;
  on(event: 'message', listener: (message: unknown) => void): unknown;
}

export interface Peer {
  call<T = unknown>(method: string, ...args: unknown[]): Promise<T>;
  /** Rejects every call still waiting (the other side is gone). */
  fail(error: Error): void;
}

export function rpcPeer(channel: Channel, handlers: Handlers): Peer {
  let seq = 0;
  const waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  channel.on('message', (raw) => {
    const message = raw as Message;
    if (typeof message !== 'object' || message === null || !('rpc' in message)) return;
    if (message.rpc === 'call') {
      const handler = handlers[message.method] as ((...args: unknown[]) => unknown) | undefined;
      Promise.resolve()
        .then(() => {
          if (!handler) throw new Error(`no method ${message.method} on the other side`);
          return handler(...message.args);
        })
        .then(
          (value) => channel.send({ rpc: 'result', id: message.id, value: value ?? null }),
          (error: unknown) =>
            channel.send({
              rpc: 'error',
              id: message.id,
              message: error instanceof Error ? error.message : String(error),
            }),
        );
      return;
    }
    const pending = waiting.get(message.id);
    waiting.delete(message.id);
    if (message.rpc === 'result') pending?.resolve(message.value);
    else pending?.reject(new Error(message.message));
  });
  return {
    call<T>(method: string, ...args: unknown[]) {
      const id = ++seq;
      return new Promise<T>((resolve, reject) => {
        waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
        channel.send({ rpc: 'call', id, method, args });
      });
    },
    fail(error) {
      for (const pending of waiting.values()) pending.reject(error);
      waiting.clear();
    },
  };
}
