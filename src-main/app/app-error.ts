// Errors raised by the app layer (not by the service): they carry the serialisable ErrorInfo
// the IPC router sends to the renderer, so a rep reads the taxonomy's message, never a stack.
import { errorInfo, TaxonomyError, type ErrorInfo, type ErrorKind } from '../../src-shared/errors';

export class AppError extends TaxonomyError {
  override readonly name = 'AppError';

  constructor(kind: ErrorKind, extra: Omit<Partial<ErrorInfo>, 'kind'> = {}) {
    super(errorInfo(kind, extra));
  }
}
