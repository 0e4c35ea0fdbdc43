// Answers of the basemap's request handler, shared by the app:// protocol and the browser runner.
/** A plain HTTP-like answer the app:// protocol and the browser runner both turn into a response. */
export interface BasemapResponse {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array | null;
}

export function textResponse(status: number, text: string): BasemapResponse {
  return {
    status,
    headers: { 'Content-Type': 'text/plain; charset=utf-8' },
    body: new TextEncoder().encode(text),
  };
}
