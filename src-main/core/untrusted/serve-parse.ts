// The worker's side of parseInWorker (parse-worker.ts): parse the one input this worker was
// started with and answer once. A refusal the parser means (its own error type) is answered as
// the rep's message; any other error is left to end the worker, which main answers as a crash.
import { parentPort, workerData } from 'node:worker_threads';
import type { ParseReply } from './parse-worker';

export function serveParse<I, T>(
  parse: (input: I) => Promise<T>,
  refusalOf: (error: unknown) => string | null,
): void {
  const port = parentPort;
  if (!port) throw new Error('serveParse runs only in a worker thread');
  void parse(workerData as I).then(
    (value) => port.postMessage({ ok: true, value } satisfies ParseReply<T>),
    (error: unknown) => {
      const refusal = refusalOf(error);
      if (refusal === null) throw error;
      port.postMessage({ ok: false, refusal } satisfies ParseReply<T>);
    },
  );
}
