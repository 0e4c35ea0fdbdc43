// Plan the week off the UI thread: 300 stops take about a second of search (planWeek in
// src-shared/week-plan-search.ts), so the page hands the input to a module worker and waits for
// the plan; a cancel ends the worker. One side runs in the worker (servePlanWeek), the other in
// the page (planWeekOffThread); both talk over any MessagePort-like pair.
import { PlanInputError, type WeekPlanInput } from '../../../../src-shared/week-plan';
import { planWeek, type WeekPlanResult } from '../../../../src-shared/week-plan-search';

export type ToPlanWorker = { input: WeekPlanInput };
export type FromPlanWorker =
  { kind: 'done'; result: WeekPlanResult } | { kind: 'error'; message: string; badInput: boolean };

/** The part of a MessagePort (or a Worker, or a worker's global scope) both sides use. */
export interface PlanPort {
  postMessage(message: unknown): void;
  onmessage: ((event: MessageEvent) => unknown) | null;
}

export function servePlanWeek(port: PlanPort): void {
  port.onmessage = (event) => {
    const { input } = event.data as ToPlanWorker;
    try {
      port.postMessage({ kind: 'done', result: planWeek(input) } satisfies FromPlanWorker);
    } catch (error) {
      const badInput = error instanceof PlanInputError;
      const message = error instanceof Error ? error.message : String(error);
      port.postMessage({ kind: 'error', message, badInput } satisfies FromPlanWorker);
    }
  };
}

export class PlanCancelled extends Error {
  constructor() {
    // Never shown (a cancel just stops); not from text.ts, which the plan worker, bundled
    // from this file, cannot load: the formatter reads the rep's unit with Svelte's runes.
    super('plan cancelled');
    this.name = 'PlanCancelled';
  }
}

/** The page's side: the plan, PlanInputError for bad input, PlanCancelled on abort. */
export function planWeekOffThread(
  input: WeekPlanInput,
  port: PlanPort,
  signal?: AbortSignal,
): Promise<WeekPlanResult> {
  return new Promise<WeekPlanResult>((resolve, reject) => {
    const cancel = () => {
      port.onmessage = null;
      reject(new PlanCancelled());
    };
    if (signal?.aborted) return cancel();
    signal?.addEventListener('abort', cancel, { once: true });
    port.onmessage = (event) => {
      const answer = event.data as FromPlanWorker;
      signal?.removeEventListener('abort', cancel);
      port.onmessage = null;
      if (answer.kind === 'done') resolve(answer.result);
      else reject(answer.badInput ? new PlanInputError(answer.message) : new Error(answer.message));
    };
    port.postMessage({ input } satisfies ToPlanWorker);
  });
}
