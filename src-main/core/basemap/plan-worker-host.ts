// Main's side of the plan worker (plan-worker.ts): one worker thread per estimate, check or
// download plan, ended when it answers. Main reads the ranges it asks for with its RangeReader
// (capped, timed, the injected fetch) and hands the bytes over. A worker that throws, runs out of
// its heap, or computes longer than `busyMs` without asking for bytes is ended and the source
// refused: a bug or a crafted input there costs a refused file, never a frozen window.
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { sourceWorkerScript } from '../untrusted/source-worker';
import type { DownloadPlan } from './region-plan';
import type { FromWorker, PlanTask, ReaderState, ToWorker } from './plan-worker-protocol';
import { refusedSource, RegionDownloadError, type RangeReader } from './region-source';

export interface PlanWorkerOptions {
  /**
   * The built worker (the Electron shell passes electron-vite's bundle of plan-worker.ts); without
   * it, main runs from its TypeScript sources (tests, the bench, the browser runner) and so does
   * the worker, bundled from its source (untrusted/source-worker.ts).
   */
  path?: string;
  /** Longest the worker may compute between two reads (default 60 s). */
  busyMs?: number;
  /** The worker's heap cap in MiB (default 1024). */
  heapMb?: number;
}

/** Runs `task` in a fresh plan worker, reading through `reader`; the plan (null for 'open'). */
export async function runPlanTask(
  reader: RangeReader,
  task: PlanTask,
  options: PlanWorkerOptions = {},
): Promise<DownloadPlan | null> {
  const script =
    options.path ??
    (await sourceWorkerScript(fileURLToPath(new URL('./plan-worker.ts', import.meta.url))));
  const worker = new Worker(script, {
    resourceLimits: { maxOldGenerationSizeMb: options.heapMb ?? 1024 },
  });
  const busyMs = options.busyMs ?? 60_000;
  const state = (): ReaderState => ({
    etag: reader.etag,
    lastModified: reader.lastModified,
    requests: reader.requests,
    size: reader.size,
  });
  return new Promise<DownloadPlan | null>((resolve, reject) => {
    let settled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      outcome();
    };
    const refuse = (reason: string) => finish(() => reject(refusedSource(reader.url, reason)));
    const busy = () => {
      clearTimeout(timer);
      timer = setTimeout(() => refuse('reading it took too long'), busyMs);
    };
    const post = (message: ToWorker) => {
      if (!settled) worker.postMessage(message);
    };
    worker.on('message', (message: FromWorker) => {
      if (message.type === 'read') {
        clearTimeout(timer); // main's reader has its own stall timeout
        reader.read(message.offset, message.length).then(
          (bytes) => {
            busy();
            post({ type: 'bytes', id: message.id, bytes, state: state() });
          },
          (error: unknown) => {
            if (!(error instanceof RegionDownloadError)) return finish(() => reject(error));
            busy();
            post({ ...errorFields(error), type: 'read-failed', id: message.id, state: state() });
          },
        );
      } else if (message.type === 'done') finish(() => resolve(message.plan));
      else
        finish(() =>
          reject(
            message.code
              ? new RegionDownloadError(message.code, message.message)
              : refusedSource(reader.url, 'it could not be read'),
          ),
        );
    });
    worker.on('error', () => refuse('it could not be read'));
    worker.on('exit', () => refuse('it could not be read'));
    busy();
    post({ type: 'task', task, state: state() });
  });
}

const errorFields = (error: RegionDownloadError) => ({ code: error.code, message: error.message });
