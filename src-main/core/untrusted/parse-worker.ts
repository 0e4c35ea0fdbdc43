// Runs a parser of untrusted bytes (a spreadsheet a colleague emailed) in a worker thread of its
// own, one per file, so that even a bug in it costs a refused file and never main: a parser that
// throws, loops or runs out of memory is ended here and answered with a refusal, while main's
// event loop (IPC, sync, the outbox) never runs a line of it. Node's worker_threads run in
// Electron's main process too; each worker has its own V8 heap, capped by resourceLimits, and is
// terminated at a deadline.
//
// The worker's side is `serveParse` (serve-parse.ts): it gets the input once, answers once,
// and is then terminated.
import { Worker } from 'node:worker_threads';
import { systemClock, type Clock } from '../ports';
import { sourceWorkerScript } from './source-worker';

/** A worker's reply: a value, or the parser's own refusal (its message is the rep's). */
export type ParseReply<T> = { ok: true; value: T } | { ok: false; refusal: string };

/** Why a parse gave no value. `refused`: the parser said why; the others: it failed. */
export type ParseFailure =
  | { kind: 'refused'; message: string }
  | { kind: 'crashed'; detail: string }
  | { kind: 'out-of-memory' }
  | { kind: 'timed-out' };

export class ParseFailed extends Error {
  override readonly name = 'ParseFailed';
  constructor(readonly failure: ParseFailure) {
    super(failure.kind === 'refused' ? failure.message : `parse worker ${failure.kind}`);
  }
}

export interface ParseLimits {
  /** The worker's V8 heap (old generation), MB. */
  heapMb: number;
  /** How long the parse may take before the worker is ended. */
  deadlineMs: number;
}

/**
 * Where a worker's code is: a built .js file (the app), or a .ts source file when main's code
 * runs from source (tests, the browser runner, benches), which Node cannot load in a worker by
 * itself and is bundled first (source-worker.ts).
 */
export type WorkerEntry = string;

function spawn(entry: WorkerEntry, input: unknown, transfer: ArrayBuffer[], heapMb: number) {
  const resourceLimits = {
    maxOldGenerationSizeMb: heapMb,
    maxYoungGenerationSizeMb: 32,
    stackSizeMb: 4,
  };
  return new Worker(entry, { workerData: input, transferList: transfer, resourceLimits });
}

/**
 * Parses `input` in a new worker of `entry` and answers its value; throws ParseFailed when the
 * parser refused the input, threw, ran out of its heap or passed the deadline. The input's
 * `transfer` buffers move to the worker (main keeps no copy).
 */
export async function parseInWorker<T>(
  entry: WorkerEntry,
  input: unknown,
  transfer: ArrayBuffer[],
  limits: ParseLimits,
  clock: Clock = systemClock,
): Promise<T> {
  const script = entry.endsWith('.ts') ? await sourceWorkerScript(entry) : entry;
  return new Promise<T>((resolve, reject) => {
    const worker = spawn(script, input, transfer, limits.heapMb);
    const deadline = new AbortController();
    let settled = false;
    const settle = (outcome: { value: T } | { failure: ParseFailure }) => {
      if (settled) return;
      settled = true;
      deadline.abort();
      void worker.terminate();
      if ('value' in outcome) resolve(outcome.value);
      else reject(new ParseFailed(outcome.failure));
    };
    clock.sleep(limits.deadlineMs, deadline.signal).then(
      () => settle({ failure: { kind: 'timed-out' } }),
      () => undefined,
    );
    worker.once('message', (reply: ParseReply<T>) =>
      settle(
        reply.ok
          ? { value: reply.value }
          : { failure: { kind: 'refused', message: reply.refusal } },
      ),
    );
    worker.once('error', (error: Error & { code?: string }) =>
      settle({
        failure:
          error.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? { kind: 'out-of-memory' }
            : { kind: 'crashed', detail: error.message.slice(0, 500) },
      }),
    );
    worker.once('exit', (code) =>
      settle({
        failure: { kind: 'crashed', detail: `the worker exited (${code}) without a reply` },
      }),
    );
  });
}
