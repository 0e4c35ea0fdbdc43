// The preload's one object (src-preload/preload.ts), typed by the IPC contract.
import type { FieldmapApi } from '../../src-shared';

declare global {
  interface Window {
    readonly fieldmap: FieldmapApi;
  }
}

export {};
