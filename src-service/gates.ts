// Deterministic gates for tests: a request matching a gate waits there (after auth, the rate
// limit and the body, before faults and the endpoint) until the test releases it.
import type { RequestGate } from './types';

/** Deterministic gates: hold requests whose method and path match until the test releases them. */
export class RequestGates {
  readonly #gates = new Set<{
    method: string;
    path: RegExp;
    arrive: () => void;
    opened: Promise<void>;
  }>();

  hold(method: string, path: RegExp): RequestGate {
    let arrive!: () => void;
    let open!: () => void;
    const arrived = new Promise<void>((r) => (arrive = r));
    const opened = new Promise<void>((r) => (open = r));
    const gate = { method: method.toUpperCase(), path, arrive, opened };
    this.#gates.add(gate);
    return {
      arrived,
      release: () => {
        this.#gates.delete(gate);
        open();
      },
    };
  }

  /** Waits while a gate holds this request (resolves at once when none matches). */
  async pass(method: string, path: string): Promise<void> {
    for (const gate of this.#gates) {
      if (gate.method !== method.toUpperCase() || !gate.path.test(path)) continue;
      gate.arrive();
      await gate.opened;
    }
  }
}
