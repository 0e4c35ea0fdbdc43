// The account's imports as main reports them. Asking main also resumes an import a restart
// interrupted, so this polls once at start and then while an import is running.
import type { FieldmapApi } from '../../../../src-shared';
import type { ImportStatus } from '../../../../src-shared/csv-customers';

const POLL_MS = 1_000;

export class ImportStatusState {
  #imports = $state.raw<ImportStatus[]>([]);
  #timer: ReturnType<typeof setTimeout> | null = null;
  #stopped = false;

  constructor(
    private readonly api: Pick<FieldmapApi, 'startImport' | 'listImports' | 'dismissImport'>,
  ) {}

  get imports(): ImportStatus[] {
    return this.#imports;
  }

  /** Polls now, and again every second while an import is not done. */
  async refresh(): Promise<void> {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    try {
      this.#imports = await this.api.listImports();
    } catch {
      // Signed out or main busy: keep what we had, try again later.
    }
    if (!this.#stopped && this.#imports.some((i) => i.state !== 'done')) {
      this.#timer = setTimeout(() => void this.refresh(), POLL_MS);
    }
  }

  /** Hands a checked CSV import to main, which runs it (resumably) and reports its progress. */
  start(
    request: Parameters<FieldmapApi['startImport']>[0],
  ): ReturnType<FieldmapApi['startImport']> {
    return this.api.startImport(request);
  }

  async dismiss(importId: string): Promise<void> {
    await this.api.dismissImport({ importId }).catch(() => false);
    await this.refresh();
  }

  stop(): void {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
  }
}

/** "about 4 min left" style text of an ETA in seconds. */
export function formatEta(seconds: number | null): string {
  if (seconds === null) return '';
  if (seconds < 60) return `about ${Math.max(1, Math.round(seconds))} s left`;
  return `about ${Math.round(seconds / 60)} min left`;
}
