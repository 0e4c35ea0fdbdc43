// Errors the outbox throws: typed values of the app's taxonomy, never bare strings, so the IPC
// layer can hand `info` to the renderer as is.
import * as v from 'valibot';
import { TaxonomyError, type ErrorInfo } from '../../../src-shared/errors';

export class OutboxError extends TaxonomyError {
  override readonly name = 'OutboxError';

  constructor(info: ErrorInfo) {
    super(info);
  }
}

/** A request the outbox refuses (bad op, wrong state, unknown op id). */
export function invalidRequest(message: string, detail?: string): OutboxError {
  return new OutboxError({ kind: 'InvalidRequest', message, ...(detail ? { detail } : {}) });
}

/** A failure of the outbox itself (its files, its lock). */
export function outboxInternal(message: string, detail?: string): OutboxError {
  return new OutboxError({ kind: 'Internal', message, ...(detail ? { detail } : {}) });
}

/** Parses `input` or throws InvalidRequest naming the first offending field. */
export function parseOrThrow<TSchema extends v.GenericSchema>(
  schema: TSchema,
  input: unknown,
  what: string,
): v.InferOutput<TSchema> {
  const result = v.safeParse(schema, input);
  if (result.success) return result.output;
  const issue = result.issues[0];
  const path = v.getDotPath(issue);
  const where = path ? ` at "${path}"` : '';
  return throwInvalid(`Invalid ${what}${where}: ${issue.message}`, v.summarize(result.issues));
}

function throwInvalid(message: string, detail: string): never {
  throw invalidRequest(message, detail);
}
