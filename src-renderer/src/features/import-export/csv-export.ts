// Export CSV off the UI thread: the page hands the customers to a worker in chunks (each a short
// structured clone), the worker turns each chunk into CSV rows with every cell guard of
// src-shared/csv-customers.ts, keeps them as a Blob and answers with its progress; the last
// answer is the file as a Blob of those (passed by reference, not copied). One side runs in the
// worker (serveCsvExport), the other in the page (exportCsvOffThread); both talk over any
// MessagePort-like pair.
import { EXPORT_COLUMNS, exportRow } from '../../../../src-shared/csv-customers';
import type { Customer } from '../../../../src-shared';
import { toCsv } from './csv-io';

export type ToExportWorker = { customers: Customer[]; last: boolean };
export type FromExportWorker =
  | { kind: 'progress'; rows: number }
  | { kind: 'done'; blob: Blob }
  | { kind: 'error'; message: string };

/** The part of a MessagePort (or a Worker, or a worker's global scope) both sides use. */
export interface ExportPort {
  postMessage(message: unknown): void;
  onmessage: ((event: MessageEvent) => unknown) | null;
}

/** Rows per message: a clone of this many records stays far below a long task. */
export const EXPORT_CHUNK = 2_000;

/**
 * The worker's side: turns each chunk into a Blob of its CSV text at once; the file (BOM, header,
 * rows) is those Blobs joined at the end. Papa's text of a chunk is a tree of tens of thousands of
 * concatenated strings: kept until the end, 100k rows of them outlived every collection and grew
 * the worker's heap into long collections that took both cores from the page's frames. A Blob
 * holds the chunk's bytes outside the JS heap, so its strings die young.
 */
export function serveCsvExport(port: ExportPort): void {
  // A BOM so spreadsheet apps read the file as UTF-8.
  const parts: Blob[] = [new Blob(['\uFEFF', toCsv([[...EXPORT_COLUMNS]])])];
  let rows = 0;
  port.onmessage = (event) => {
    const message = event.data as ToExportWorker;
    try {
      if (message.customers.length > 0) {
        parts.push(new Blob(['\r\n', toCsv(message.customers.map(exportRow))]));
        rows += message.customers.length;
      }
      const answer: FromExportWorker = message.last
        ? { kind: 'done', blob: new Blob(parts, { type: 'text/csv' }) }
        : { kind: 'progress', rows };
      port.postMessage(answer);
    } catch (error) {
      port.postMessage({ kind: 'error', message: String(error) } satisfies FromExportWorker);
    }
  };
}

/**
 * The rep's own cancel: never shown (the export panel just stops), so its message is for logs,
 * not text. This module also runs in the worker, which loads no text module.
 */
export class ExportCancelled extends Error {
  constructor() {
    super('export cancelled');
    this.name = 'ExportCancelled';
  }
}

/**
 * The page's side: sends `customers` chunk by chunk (the next one once the worker answered the
 * last, so the page never queues 100k clones at once), reports rows done, resolves with the file.
 * An abort stops sending and rejects with ExportCancelled; the caller ends the worker.
 */
export function exportCsvOffThread(
  customers: readonly Customer[],
  port: ExportPort,
  options: { onProgress?: (done: number, total: number) => void; signal?: AbortSignal } = {},
): Promise<Blob> {
  const total = customers.length;
  let sent = 0;
  const sendNext = () => {
    const chunk = customers.slice(sent, sent + EXPORT_CHUNK);
    sent += chunk.length;
    port.postMessage({ customers: chunk, last: sent >= total } satisfies ToExportWorker);
  };
  return new Promise<Blob>((resolve, reject) => {
    const { signal } = options;
    const cancel = () => {
      port.onmessage = null;
      reject(new ExportCancelled());
    };
    if (signal?.aborted) return cancel();
    signal?.addEventListener('abort', cancel, { once: true });
    port.onmessage = (event) => {
      const answer = event.data as FromExportWorker;
      if (answer.kind === 'error') reject(new Error(answer.message));
      else if (answer.kind === 'done') {
        options.onProgress?.(total, total);
        resolve(answer.blob);
      } else {
        options.onProgress?.(answer.rows, total);
        return sendNext();
      }
      signal?.removeEventListener('abort', cancel);
      port.onmessage = null;
    };
    sendNext();
  });
}
