// Errors raised by the app layer (not by the service): they carry the serialisable ErrorInfo
// the IPC router sends to the renderer, so a rep reads the taxonomy's message, never a stack.
import { errorInfo, type ErrorInfo, type ErrorKind } from '../../src-shared/errors';

export class AppError extends Error {
  readonly info: ErrorInfo;
  constructor(kind: ErrorKind, extra: Omit<Partial<ErrorInfo>, 'kind'> = {}) {
    const info = errorInfo(kind, extra);
    super(info.message);
    this.name = 'AppError';
    this.info = info;
  }

  get kind(): ErrorKind {
    return this.info.kind;
  }
}
