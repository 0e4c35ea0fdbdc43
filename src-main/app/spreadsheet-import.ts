// The 'import:read-spreadsheet' task: the bytes of the .xlsx the rep picked, read in main into
// the table the import dialog maps and checks like a CSV file. A file the reader refuses (too
// big, a zip bomb, damaged, password-protected) comes back as the reader's message.
import { Buffer } from 'node:buffer';
import type { ReadSpreadsheetRequest, SheetTable } from '../../src-shared/spreadsheet';
import { readXlsx, XlsxError } from '../core/xlsx/read-xlsx';
import { AppError } from './app-error';

export async function readSpreadsheet(request: ReadSpreadsheetRequest): Promise<SheetTable> {
  const bytes = Buffer.from(request.base64, 'base64');
  try {
    return await readXlsx(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  } catch (error) {
    if (error instanceof XlsxError)
      throw new AppError('InvalidRequest', { message: error.message });
    throw error;
  }
}
