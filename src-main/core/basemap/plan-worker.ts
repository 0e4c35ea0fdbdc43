// The plan worker's entry (a worker thread): everything a region estimate or download does with
// the source's bytes runs here, away from main's event loop: the header and directory checks,
// the unpacking, the area's tiles, the output's layout. Main keeps the network (its fetch, its
// range reader with caps and timeouts) and answers each read this worker asks for.
import { parentPort } from 'node:worker_threads';
import { ringProblem } from '../../../src-shared/area-ring';
import { planDownload } from './region-plan';
import { openArchive, RegionDownloadError, type ArchiveReader } from './region-source';
import type { PlanTask, FromWorker, ToWorker, ReaderState } from './plan-worker-protocol';

class ReaderProxy implements ArchiveReader {
  etag: string | null = null;
  lastModified: string | null = null;
  requests = 0;
  size: number | null = null;
  #next = 0;
  readonly #waiting = new Map<
    number,
    { resolve: (bytes: Uint8Array) => void; reject: (e: Error) => void }
  >();

  constructor(
    readonly url: string,
    private readonly post: (message: FromWorker) => void,
  ) {}

  read(offset: number, length: number): Promise<Uint8Array> {
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject });
      this.post({ type: 'read', id, offset, length });
    });
  }

  answer(message: Extract<ToWorker, { type: 'bytes' | 'read-failed' }>): void {
    const waiting = this.#waiting.get(message.id);
    this.#waiting.delete(message.id);
    this.#update(message.state);
    if (message.type === 'bytes') waiting?.resolve(message.bytes);
    else waiting?.reject(new RegionDownloadError(message.code, message.message));
  }

  #update(state: ReaderState): void {
    Object.assign(this, state);
  }
}

async function run(task: PlanTask, reader: ReaderProxy): Promise<FromWorker> {
  if (task.kind === 'open') {
    await openArchive(reader);
    return { type: 'done', plan: null };
  }
  // Checked here, not on main: a territory's outline has up to 10,000 corners.
  const problem = task.area.kind === 'polygon' ? ringProblem(task.area.ring) : null;
  if (problem) throw new RegionDownloadError('bad-area', problem);
  const plan = await planDownload(reader, task.area, task.maxZoom, task.limits);
  return { type: 'done', plan };
}

const port = parentPort;
if (port) {
  let reader: ReaderProxy | null = null;
  port.on('message', (message: ToWorker) => {
    if (message.type !== 'task') return reader?.answer(message);
    reader = new ReaderProxy(message.task.url, (m) => port.postMessage(m));
    Object.assign(reader, message.state);
    run(message.task, reader).then(
      (result) => port.postMessage(result),
      (error: unknown) =>
        port.postMessage(
          error instanceof RegionDownloadError
            ? { type: 'failed', code: error.code, message: error.message }
            : { type: 'failed', code: null, message: String(error) },
        ),
    );
  });
}
