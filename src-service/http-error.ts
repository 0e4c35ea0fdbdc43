// A rejection with its HTTP status and the JSON error body the service sends.

export interface ErrorBody {
  error: string;
  message: string;
  fields?: string[];
  ids?: string[];
}

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: { fields?: string[]; ids?: string[]; headers?: Record<string, string> } = {},
  ) {
    super(message);
  }

  body(): ErrorBody {
    const body: ErrorBody = { error: this.code, message: this.message };
    if (this.extra.fields) body.fields = this.extra.fields;
    if (this.extra.ids) body.ids = this.extra.ids;
    return body;
  }
}

/** 400 naming the offending fields. */
export function badField(field: string, why: string): HttpError {
  return new HttpError(400, 'invalid_field', `Field "${field}" ${why}.`, { fields: [field] });
}
