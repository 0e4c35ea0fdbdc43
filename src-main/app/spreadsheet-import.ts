// The 'import:read-spreadsheet' task: the bytes of the .xlsx the rep picked, read into the table
// the import dialog maps and checks like a CSV file. The reading runs in a worker thread
// (core/untrusted/parse-worker.ts), never on main's event loop: a file the reader refuses (too
// big, a zip bomb, damaged, password-protected, over a cap) and a reader that fails on it (an
// error, out of its memory, past its deadline) both come back as a message naming the file.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  MAX_SPREADSHEET_BYTES,
  refusedFileMessage,
  spreadsheetTooLargeMessage,
  type ReadSpreadsheetRequest,
  type SheetTable,
} from '../../src-shared/spreadsheet';
import {
  ParseFailed,
  parseInWorker,
  type ParseLimits,
  type WorkerEntry,
} from '../core/untrusted/parse-worker';
import type { Clock } from '../core/ports';
import type { XlsxWorkerInput } from '../core/xlsx/xlsx-worker';
import { AppError } from './app-error';

/** The reader's worker when main runs from source; the app's build passes its own file. */
export const SOURCE_XLSX_WORKER: WorkerEntry = join(
  dirname(fileURLToPath(import.meta.url)),
  '../core/xlsx/xlsx-worker.ts',
);

/** Far above a 20 MB workbook of 100,000 rows, far below what would strain a laptop. */
export const XLSX_LIMITS: ParseLimits = { heapMb: 1024, deadlineMs: 120_000 };

export interface SpreadsheetReader {
  entry?: WorkerEntry;
  limits?: ParseLimits;
  /** Times the deadline (default: real time). */
  clock?: Clock;
}

/** Bytes a base64 text decodes to. */
const decodedLength = (base64: string) =>
  Math.floor((base64.length * 3) / 4) - (base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0);

export async function readSpreadsheet(
  request: ReadSpreadsheetRequest,
  reader: SpreadsheetReader = {},
): Promise<SheetTable> {
  const refuse = (reason: string) =>
    new AppError('InvalidRequest', { message: refusedFileMessage(request.fileName, reason) });
  const size = decodedLength(request.base64);
  if (size > MAX_SPREADSHEET_BYTES) throw refuse(spreadsheetTooLargeMessage(size));
  const limits = reader.limits ?? XLSX_LIMITS;
  try {
    return await parseInWorker<SheetTable>(
      reader.entry ?? SOURCE_XLSX_WORKER,
      { base64: request.base64 } satisfies XlsxWorkerInput,
      [],
      limits,
      reader.clock,
    );
  } catch (error) {
    if (!(error instanceof ParseFailed)) throw error;
    const { failure } = error;
    const SMALLER = 'Save the customers you need as a smaller file or CSV.';
    switch (failure.kind) {
      case 'refused':
        throw refuse(failure.message);
      case 'out-of-memory':
        throw refuse(`Reading it needed more memory than Fieldmap allows. ${SMALLER}`);
      case 'timed-out':
        throw refuse(
          `Reading it took longer than ${Math.round(limits.deadlineMs / 1000)} seconds. ${SMALLER}`,
        );
      case 'crashed':
        console.warn(`[fieldmap] the spreadsheet reader failed: ${failure.detail}`);
        throw refuse(
          'Fieldmap could not read it. Open it in Excel and save it again, or save it as CSV.',
        );
    }
  }
}
