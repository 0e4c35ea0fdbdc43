// The preload's one object (src-main/shell/preload.ts), typed by the IPC contract.
import type { FieldmapApi } from '../../src-shared';

declare global {
  interface Window {
    readonly fieldmap: FieldmapApi;
  }
}

export {};
