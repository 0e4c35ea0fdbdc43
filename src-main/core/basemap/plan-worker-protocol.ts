// The messages between main and the plan worker (plan-worker.ts, plan-worker-host.ts).
import type { RegionArea, DownloadPlan } from './region-plan';
import type { DownloadErrorCode } from './region-source';

export type PlanTask =
  | { kind: 'open'; url: string }
  | {
      kind: 'plan';
      url: string;
      area: RegionArea;
      maxZoom: number;
      limits: { maxBytes?: number; maxGapBytes?: number };
    };

/** What the worker's reader proxy mirrors of main's RangeReader after each answer. */
export interface ReaderState {
  etag: string | null;
  lastModified: string | null;
  requests: number;
  size: number | null;
}

export type ToWorker =
  | { type: 'task'; task: PlanTask; state: ReaderState }
  | { type: 'bytes'; id: number; bytes: Uint8Array; state: ReaderState }
  | {
      type: 'read-failed';
      id: number;
      code: DownloadErrorCode;
      message: string;
      state: ReaderState;
    };

export type FromWorker =
  | { type: 'read'; id: number; offset: number; length: number }
  | { type: 'done'; plan: DownloadPlan | null }
  | { type: 'failed'; code: DownloadErrorCode | null; message: string };
