// Deterministic gates for tests: a request matching a gate waits there until the test releases
// it. A 'before-commit' gate holds it after auth, the rate limit and the body, before faults and
// the endpoint (nothing applied yet); an 'after-commit' gate holds its answer once the endpoint
// has applied it (committed, the client still waiting).
import type { GateAt, RequestGate } from './types';

/** Deterministic gates: hold requests whose method and path match until the test releases them. */
export class RequestGates {
  readonly #gates = new Set<{
    method: string;
    path: RegExp;
    at: GateAt;
    arrive: () => void;
    opened: Promise<void>;
  }>();

  hold(method: string, path: RegExp, at: GateAt = 'before-commit'): RequestGate {
    let arrive!: () => void;
    let open!: () => void;
    const arrived = new Promise<void>((r) => (arrive = r));
    const opened = new Promise<void>((r) => (open = r));
    const gate = { method: method.toUpperCase(), path, at, arrive, opened };
    this.#gates.add(gate);
    return {
      arrived,
      release: () => {
        this.#gates.delete(gate);
        open();
      },
    };
  }

  /** Waits while a gate holds this request at this point (resolves at once when none matches). */
  async pass(method: string, path: string, at: GateAt = 'before-commit'): Promise<void> {
    for (const gate of this.#gates) {
      if (gate.at !== at) continue;
      if (gate.method !== method.toUpperCase() || !gate.path.test(path)) continue;
      gate.arrive();
      await gate.opened;
    }
  }
}
