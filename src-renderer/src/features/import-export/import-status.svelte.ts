// The account's imports as main reports them. Asking main also resumes an import a restart
// interrupted, so this polls once at start and then while an import is running.
import type { FieldmapApi } from '../../../../src-shared';
import type { ImportStatus } from '../../../../src-shared/csv-customers';
import { format } from '../../ui/format';
import { text } from './text';

const POLL_MS = 1_000;

export class ImportStatusState {
  #imports = $state.raw<ImportStatus[]>([]);
  #timer: ReturnType<typeof setTimeout> | null = null;
  #stopped = false;

  constructor(
    private readonly api: Pick<
      FieldmapApi,
      'startImport' | 'listImports' | 'dismissImport' | 'readSpreadsheet'
    >,
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

  /** Hands a checked import (CSV or Excel) to main, which runs it (resumably) and reports its progress. */
  start(
    request: Parameters<FieldmapApi['startImport']>[0],
  ): ReturnType<FieldmapApi['startImport']> {
    return this.api.startImport(request);
  }

  /** Has main read an .xlsx the rep picked into a table (the dialog then maps it like a CSV). */
  readSpreadsheet(
    request: Parameters<FieldmapApi['readSpreadsheet']>[0],
  ): ReturnType<FieldmapApi['readSpreadsheet']> {
    return this.api.readSpreadsheet(request);
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

/**
 * The import chip's text. "Imported" only once no row waits; until then it counts rows on the
 * service and rows waiting, the same rows the Changes view counts.
 */
export function importChipText(job: ImportStatus): string {
  const attention = job.needsAttention > 0 ? text.chip.attention(job.needsAttention) : '';
  const waiting = job.total - job.created - job.needsAttention;
  if (job.state === 'done' && waiting === 0) {
    return text.chip.imported(job.created, job.total, job.fileName, attention);
  }
  const how = job.state === 'paused' ? text.chip.paused : '';
  const eta = job.state === 'paused' ? '' : format.timeLeft(job.etaSeconds);
  return text.chip.importing(job.fileName, job.created, job.total, waiting, attention, how, eta);
}
