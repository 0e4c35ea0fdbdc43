// Export CSV as the rep sees it: one export at a time, run in a worker (csv-export.ts) with its
// progress ("Exporting 40,000 of 100,000"), a Cancel, and the file offered as a download.
import type { Customer } from '../../../../src-shared';
import { ExportCancelled, exportCsvOffThread, type ExportPort } from './csv-export';
import { datedFileName, saveBlob } from './download';
import { text } from './text';

export class CsvExportState {
  #progress = $state.raw<{ done: number; total: number } | null>(null);
  #failure = $state<string | null>(null);
  #abort: AbortController | null = null;

  /** Rows written so far while an export runs, null otherwise. */
  get progress(): { done: number; total: number } | null {
    return this.#progress;
  }

  get failure(): string | null {
    return this.#failure;
  }

  async run(customers: readonly Customer[]): Promise<void> {
    if (this.#abort) return;
    const abort = new AbortController();
    this.#abort = abort;
    this.#failure = null;
    this.#progress = { done: 0, total: customers.length };
    const worker = new Worker(new URL('./csv-export.worker.ts', import.meta.url), {
      type: 'module',
    });
    let broken: string | null = null;
    worker.addEventListener('error', (event) => {
      broken = event.message || text.export.workerDidNotStart;
      abort.abort();
    });
    try {
      const blob = await exportCsvOffThread(customers, worker as unknown as ExportPort, {
        signal: abort.signal,
        onProgress: (done, total) => (this.#progress = { done, total }),
      });
      saveBlob(datedFileName('customers', 'csv'), blob);
    } catch (error) {
      if (broken !== null) this.#failure = text.export.failed(broken);
      else if (!(error instanceof ExportCancelled))
        this.#failure = text.export.failedWith(String(error));
    } finally {
      worker.terminate();
      this.#abort = null;
      this.#progress = null;
    }
  }

  cancel(): void {
    this.#abort?.abort();
  }
}
