// The region downloads of the app: estimate an area, start, pause, resume and cancel, and find
// the interrupted ones again after a restart (paused, ready to resume). A finished download
// becomes an offline region by one atomic rename; a failed or cancelled one leaves nothing
// behind, and existing regions are never touched until an update's new file is in place.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { RegionAreaInput } from '../../../src-shared/basemap';
import { DurableWriteError, nodeDurableFs, type DurableFs } from '../durable-fs';
import type { Clock } from '../ports';
import type { OfflineRegions } from './offline-regions';
import {
  discardDownload,
  prepareDownload,
  readPlan,
  runDownload,
  systemFreeSpace,
  type DownloadProgress,
  type FreeSpace,
} from './region-download';
import * as v from 'valibot';
import { DownloadPlanSchema, type StoredPlan } from './plan-schema';
import { runPlanTask, type PlanWorkerOptions } from './plan-worker-host';
import { MAX_REGION_BYTES, type DownloadPlan, type RegionArea } from './region-plan';
import { RangeReader, refusedSource, RegionDownloadError } from './region-source';

export interface RegionEstimate {
  tileCount: number;
  totalBytes: number;
  downloadBytes: number;
  dataDate: string | null;
  requests: number;
}

export interface DownloadStatus extends DownloadProgress {
  id: string;
  name: string;
  state: 'running' | 'paused' | 'failed' | 'done';
  /** Seconds left at the current rate; null until there is a rate. */
  secondsLeft: number | null;
  error: string | null;
  regionId: string | null;
  requests: number;
}

export interface RegionDownloadsOptions {
  dataDir: string;
  regions: OfflineRegions;
  clock: Clock;
  fetch?: typeof globalThis.fetch;
  freeSpace?: FreeSpace;
  maxBytes?: number;
  /** Source ranges closer than this are fetched as one request (default 32 KiB). */
  maxGapBytes?: number;
  concurrency?: number;
  /** Every status change and progress step. */
  onChange?: (status: DownloadStatus) => void;
  fs?: DurableFs;
  /**
   * Whether the rep typed and confirmed this source's origin: only then may it be on this
   * computer or the local network (default: never).
   */
  confirmedLocal?: (origin: string) => boolean;
  /** Bounds of the plan worker (plan-worker-host.ts). */
  planWorker?: PlanWorkerOptions;
  /** A request whose answer or next bytes do not come within this is given up (default 30 s). */
  stallMs?: number;
}

interface Job {
  status: DownloadStatus;
  plan: StoredPlan;
  controller: AbortController | null;
  settled: Promise<void>;
}

export class RegionDownloads {
  readonly #dir: string;
  readonly #options: RegionDownloadsOptions;
  readonly #fs: DurableFs;
  readonly #jobs = new Map<string, Job>();

  private constructor(options: RegionDownloadsOptions) {
    this.#dir = join(options.dataDir, 'region-downloads');
    this.#options = options;
    this.#fs = options.fs ?? nodeDurableFs;
  }

  /** Finds the downloads a restart interrupted: each is paused until the rep resumes it. */
  static async open(options: RegionDownloadsOptions): Promise<RegionDownloads> {
    const downloads = new RegionDownloads(options);
    const fs = downloads.#fs;
    const ids = await fs.ops.readdir(downloads.#dir).catch(() => [] as string[]);
    for (const id of ids) {
      const plan = await readPlan(join(downloads.#dir, id), fs);
      if (!plan) {
        // Torn before its plan was written, or a plan that is not one of ours: nothing to resume.
        await discardDownload(join(downloads.#dir, id), fs);
        continue;
      }
      downloads.#jobs.set(id, {
        plan,
        controller: null,
        settled: Promise.resolve(),
        status: downloads.#status(id, plan, 'paused'),
      });
    }
    return downloads;
  }

  list(): DownloadStatus[] {
    return [...this.#jobs.values()].map((job) => ({ ...job.status }));
  }

  #reader(url: string, signal?: AbortSignal, confirmed = false): RangeReader {
    let origin: string | null = null;
    try {
      origin = new URL(url).origin;
    } catch {
      // RangeReader refuses it with the reason
    }
    return new RangeReader(url, {
      clock: this.#options.clock,
      confirmedLocal:
        confirmed || (origin !== null && (this.#options.confirmedLocal?.(origin) ?? false)),
      ...(this.#options.fetch ? { fetch: this.#options.fetch } : {}),
      ...(signal ? { signal } : {}),
      ...(this.#options.stallMs !== undefined ? { stallMs: this.#options.stallMs } : {}),
    });
  }

  /**
   * Reads the source's header: throws the RegionDownloadError that says why it is not a
   * clustered vector PMTiles v3 archive; an unreachable source passes (it is checked again on use).
   */
  async checkSource(url: string, options: { confirmedLocal?: boolean } = {}): Promise<void> {
    try {
      const reader = this.#reader(url, undefined, options.confirmedLocal);
      await runPlanTask(reader, { kind: 'open', url }, this.#options.planWorker);
    } catch (error) {
      if (
        error instanceof RegionDownloadError &&
        (error.code === 'network' || error.code === 'http')
      )
        return;
      throw error;
    }
  }

  /** The exact size and tile count of an area, from the source's directories. */
  async estimate(url: string, area: RegionAreaInput, maxZoom: number): Promise<RegionEstimate> {
    const reader = this.#reader(url);
    const plan = await this.#plan(reader, area, maxZoom);
    return {
      tileCount: plan.tileCount,
      totalBytes: plan.totalBytes,
      downloadBytes: plan.downloadBytes,
      dataDate: plan.dataDate,
      requests: reader.requests,
    };
  }

  /** Plans the download, checks the disk and starts it; resolves once it is under way. */
  async start(request: {
    url: string;
    area: RegionAreaInput;
    maxZoom: number;
    name: string;
    replaces?: string;
  }): Promise<DownloadStatus> {
    const reader = this.#reader(request.url);
    const plan: StoredPlan = {
      ...(await this.#plan(reader, request.area, request.maxZoom)),
      name: request.name,
      area: request.area,
      replaces: request.replaces ?? null,
    };
    const id = randomUUID();
    const dir = join(this.#dir, id);
    try {
      await prepareDownload(dir, plan, this.#options.freeSpace ?? systemFreeSpace, this.#fs);
    } catch (error) {
      await discardDownload(dir, this.#fs);
      throw error;
    }
    const job: Job = {
      plan,
      controller: null,
      settled: Promise.resolve(),
      status: this.#status(id, plan, 'running'),
    };
    job.status.requests = reader.requests;
    this.#jobs.set(id, job);
    this.#run(id, job, false);
    return { ...job.status };
  }

  resume(id: string): DownloadStatus {
    const job = this.#job(id);
    if (job.status.state === 'paused') this.#run(id, job, true);
    return { ...job.status };
  }

  /** Stops after the ranges in flight; what is on disk stays for resume. */
  async pause(id: string): Promise<DownloadStatus> {
    const job = this.#job(id);
    job.controller?.abort(new RegionDownloadError('cancelled', 'Paused.'));
    await job.settled;
    return { ...job.status };
  }

  async cancel(id: string): Promise<void> {
    const job = this.#job(id);
    job.controller?.abort(new RegionDownloadError('cancelled', 'Cancelled.'));
    await job.settled;
    this.#jobs.delete(id);
    await discardDownload(join(this.#dir, id), this.#fs);
    this.#options.onChange?.({ ...job.status, state: 'failed', error: 'Cancelled.' });
  }

  /** Pauses every running download (the app is closing): each resumes at the next start. */
  async pauseAll(): Promise<void> {
    for (const [id, job] of this.#jobs) if (job.status.state === 'running') await this.pause(id);
  }

  /** Resolves when the download stops (done, paused or failed); for tests and the bench. */
  async settled(id: string): Promise<DownloadStatus> {
    const job = this.#job(id);
    await job.settled;
    return { ...job.status };
  }

  #job(id: string): Job {
    const job = this.#jobs.get(id);
    if (!job) throw new RegionDownloadError('cancelled', 'There is no such download.');
    return job;
  }

  /** The plan, made in a plan worker: main's event loop never parses the source's bytes. */
  async #plan(reader: RangeReader, area: RegionArea, maxZoom: number): Promise<DownloadPlan> {
    const task = { kind: 'plan', url: reader.url, area, maxZoom, limits: this.#limits() } as const;
    const plan = v.safeParse(
      DownloadPlanSchema,
      await runPlanTask(reader, task, this.#options.planWorker),
    );
    if (!plan.success) throw refusedSource(reader.url, 'it could not be planned');
    return plan.output;
  }

  #limits(): { maxBytes: number; maxGapBytes?: number } {
    const { maxBytes, maxGapBytes } = this.#options;
    return {
      maxBytes: maxBytes ?? MAX_REGION_BYTES,
      ...(maxGapBytes !== undefined ? { maxGapBytes } : {}),
    };
  }

  #status(id: string, plan: StoredPlan, state: DownloadStatus['state']): DownloadStatus {
    return {
      id,
      name: plan.name,
      state,
      doneBytes: 0,
      totalBytes: plan.downloadBytes,
      doneRanges: 0,
      ranges: plan.ranges.length,
      secondsLeft: null,
      error: null,
      regionId: null,
      requests: 0,
    };
  }

  #run(id: string, job: Job, resumed: boolean): void {
    const controller = new AbortController();
    const reader = this.#reader(job.plan.sourceUrl, controller.signal);
    const { clock } = this.#options;
    const dir = join(this.#dir, id);
    const startedAt = clock.now();
    let startBytes: number | null = null;
    const requestsBefore = job.status.requests;
    job.controller = controller;
    job.status = { ...job.status, state: 'running', error: null };
    const emit = () => this.#options.onChange?.({ ...job.status });
    emit();
    const onProgress = (progress: DownloadProgress) => {
      startBytes ??= progress.doneBytes;
      const elapsed = (clock.now() - startedAt) / 1000;
      const rate = elapsed > 0 ? (progress.doneBytes - startBytes) / elapsed : 0;
      const left = progress.totalBytes - progress.doneBytes;
      job.status = {
        ...job.status,
        ...progress,
        requests: requestsBefore + reader.requests,
        secondsLeft: rate > 0 ? Math.ceil(left / rate) : null,
      };
      emit();
    };
    const work = async () => {
      const file = await runDownload(dir, job.plan, {
        reader,
        signal: controller.signal,
        onProgress,
        resumed,
        fs: this.#fs,
        ...(this.#options.concurrency ? { concurrency: this.#options.concurrency } : {}),
      });
      const region = await this.#options.regions.adopt(file, {
        name: job.plan.name,
        bounds: job.plan.bounds,
        minZoom: 0,
        maxZoom: job.plan.maxZoom,
        download: { url: job.plan.sourceUrl, dataDate: job.plan.dataDate, area: job.plan.area },
      });
      if (job.plan.replaces) await this.#options.regions.remove(job.plan.replaces);
      await discardDownload(dir, this.#fs);
      return region.id;
    };
    job.settled = work().then(
      (regionId) => {
        job.status = { ...job.status, state: 'done', regionId, secondsLeft: 0 };
        job.status.requests = requestsBefore + reader.requests;
        this.#jobs.delete(id);
        emit();
      },
      async (error: unknown) => {
        job.status.requests = requestsBefore + reader.requests;
        if (controller.signal.aborted) {
          job.status = { ...job.status, state: 'paused', secondsLeft: null };
        } else {
          const told = error instanceof RegionDownloadError || error instanceof DurableWriteError;
          const message = told ? error.message : 'The download failed.';
          job.status = { ...job.status, state: 'failed', error: message };
          this.#jobs.delete(id);
          await discardDownload(dir, this.#fs).catch(() => undefined);
        }
        emit();
      },
    );
  }
}
