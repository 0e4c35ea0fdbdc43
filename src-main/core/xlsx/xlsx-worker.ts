// The worker thread that reads one .xlsx (parseInWorker, core/untrusted/): the file's bytes come
// in as base64, decoded here so main never copies them, and the table goes back.
import { Buffer } from 'node:buffer';
import { serveParse } from '../untrusted/serve-parse';
import { readXlsx, XlsxError } from './read-xlsx';

export interface XlsxWorkerInput {
  base64: string;
}

serveParse(
  async ({ base64 }: XlsxWorkerInput) => {
    const bytes = Buffer.from(base64, 'base64');
    return readXlsx(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  },
  (error) => (error instanceof XlsxError ? error.message : null),
);
