// What tests add to the reference service's pipeline: seeded faults (redirects, errors, resets,
// latency) and requests held until a test releases them. Only ./index.ts builds these; the
// product's demo (./demo.ts) runs without, so none of it ships in the main bundle.
import type { IncomingMessage } from 'node:http';
import { FaultInjector } from './faults';
import { RequestGates } from './gates';
import type { Faults } from './types';

/** How a hook answers, in the pipeline's own voice (its variants, PHP's habits). */
export interface HookAnswer {
  send(status: number, body: unknown, headers?: Record<string, string>): void;
  serverError(status: number, body: unknown): void;
}

/** Runs once the endpoint applied the request: true when it answered or dropped the request. */
export type AfterCommit = () => Promise<boolean>;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class TestHooks {
  readonly faults: FaultInjector;
  readonly gates = new RequestGates();

  constructor(faults: Partial<Faults> = {}) {
    this.faults = new FaultInjector(faults);
  }

  /** Before the endpoint: null when the request was answered or dropped here. */
  async before(
    req: IncomingMessage,
    path: string,
    answer: HookAnswer,
  ): Promise<AfterCommit | null> {
    const redirect = this.faults.redirectFor(req.url ?? '/');
    if (redirect) {
      answer.send(
        redirect.status,
        { error: 'moved', message: `See ${redirect.location}.` },
        { Location: redirect.location },
      );
      return null;
    }
    const method = req.method ?? 'GET';
    await this.gates.pass(method, path);
    const fault = this.faults.decide();
    if (fault.delayMs > 0) await sleep(fault.delayMs);
    if (fault.kind === 'error') {
      answer.serverError(fault.status, {
        error: fault.status === 500 ? 'server_error' : 'bad_gateway',
        message: 'Injected server fault.',
      });
      return null;
    }
    if (fault.kind === 'reset-before') {
      req.socket.destroy();
      return null;
    }
    return async () => {
      await this.gates.pass(method, path, 'after-commit');
      if (fault.kind === 'reset-after') {
        req.socket.destroy();
        return true;
      }
      if (fault.kind === 'error-after-commit') {
        answer.serverError(502, { error: 'bad_gateway', message: 'Injected fault after commit.' });
        return true;
      }
      return false;
    };
  }
}
