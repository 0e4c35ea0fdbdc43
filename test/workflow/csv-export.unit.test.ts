// Export CSV off the UI thread (csv-export.ts): the page's side and the worker's side over a real
// MessageChannel (structured clones, as between the page and its worker). The file is the same
// text as the one-shot export (BOM, header, every cell guard), progress counts every chunk, a
// cancel stops the sending, and the worker holds the rows written so far outside its JS heap.
import { MessageChannel } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { exportTable } from '../../src-shared/csv-customers';
import type { Customer } from '../../src-shared';
import {
  EXPORT_CHUNK,
  ExportCancelled,
  exportCsvOffThread,
  serveCsvExport,
  type ExportPort,
  type FromExportWorker,
  type ToExportWorker,
} from '../../src-renderer/src/features/import-export/csv-export';
import { toCsv } from '../../src-renderer/src/features/import-export/csv-io';
import { makeCustomers } from '../renderer/pages/fixtures';
import { collectedMemory } from '../support/heap';

const channels: MessageChannel[] = [];
afterEach(() => {
  for (const c of channels.splice(0)) {
    c.port1.close();
    c.port2.close();
  }
});

function pair(): { page: ExportPort; worker: ExportPort } {
  const channel = new MessageChannel();
  channels.push(channel);
  return {
    page: channel.port1 as unknown as ExportPort,
    worker: channel.port2 as unknown as ExportPort,
  };
}

describe('CSV export in a worker', () => {
  it('writes the same file as the one-shot export, formula cells guarded, with progress per chunk', async () => {
    const customers: Customer[] = makeCustomers(EXPORT_CHUNK * 2 + 17, 3);
    customers[1] = { ...customers[1]!, name: '=HYPERLINK("http://x","y")', groups: ['+cmd'] };
    customers[EXPORT_CHUNK + 3] = { ...customers[EXPORT_CHUNK + 3]!, company: '@SUM(A1)' };
    const { page, worker } = pair();
    serveCsvExport(worker);
    const progress: number[] = [];
    const blob = await exportCsvOffThread(customers, page, {
      onProgress: (done, total) => {
        expect(total).toBe(customers.length);
        progress.push(done);
      },
    });
    // The BOM kept (blob.text() would drop it).
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await blob.arrayBuffer());
    expect(text).toBe(`\uFEFF${toCsv(exportTable(customers))}`);
    expect(text).not.toContain(',=HYPERLINK');
    expect(text).not.toContain(',@SUM');
    expect(progress).toEqual([EXPORT_CHUNK, EXPORT_CHUNK * 2, customers.length]);
  });

  it('a cancel stops sending and rejects with ExportCancelled', async () => {
    const customers = makeCustomers(EXPORT_CHUNK * 5, 4);
    const { page, worker } = pair();
    serveCsvExport(worker);
    const abort = new AbortController();
    const seen: number[] = [];
    const done = exportCsvOffThread(customers, page, {
      signal: abort.signal,
      onProgress: (rows) => {
        seen.push(rows);
        abort.abort();
      },
    });
    await expect(done).rejects.toBeInstanceOf(ExportCancelled);
    expect(seen).toEqual([EXPORT_CHUNK]);
  });

  it("holds the rows written so far outside the worker's heap: its text is no garbage kept", async () => {
    const heap = async () => (await collectedMemory()).heapUsed;
    const customers = makeCustomers(EXPORT_CHUNK * 10, 5);
    // The worker's side driven directly: no port's queue holds anything between the chunks.
    const answers: FromExportWorker[] = [];
    const worker: ExportPort = {
      postMessage: (m) => answers.push(m as FromExportWorker),
      onmessage: null,
    };
    serveCsvExport(worker);
    const send = (from: number, last: boolean) =>
      worker.onmessage!({
        data: {
          customers: customers.slice(from, from + EXPORT_CHUNK),
          last,
        } satisfies ToExportWorker,
      } as MessageEvent);
    const start = await heap();
    for (let i = 0; i < customers.length - EXPORT_CHUNK; i += EXPORT_CHUNK) send(i, false);
    const held = (await heap()) - start;
    send(customers.length - EXPORT_CHUNK, true);
    // Papa's text of 18,000 rows, kept as strings, is tens of MB of concatenation nodes.
    expect(held).toBeLessThan(2 * 2 ** 20);
    const done = answers.at(-1);
    expect(done?.kind).toBe('done');
    const blob = (done as { blob: Blob }).blob;
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await blob.arrayBuffer());
    expect(text).toBe(`\uFEFF${toCsv(exportTable(customers))}`);
  });
});
