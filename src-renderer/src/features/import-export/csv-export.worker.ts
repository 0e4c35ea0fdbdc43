// The export worker (see csv-export.ts): built by Vite as its own module file, loaded from the
// app's origin ('self' in the CSP's worker-src).
import { serveCsvExport, type ExportPort } from './csv-export';

serveCsvExport(self as unknown as ExportPort);
