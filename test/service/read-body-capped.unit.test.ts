// readBodyCapped: the whole body, byte for byte, whether its Content-Length is declared, missing
// or smaller than the body (the encoded size of a body fetch unpacked), and a refusal past the cap.
import { describe, expect, it } from 'vitest';
import { readBodyCapped } from '../../src-main/core/service/responses';

/** A body arriving in pieces of `piece` bytes, with these headers. */
function answer(bytes: Uint8Array, piece: number, headers: Record<string, string>): Response {
  let at = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at + piece));
      at += piece;
    },
  });
  return new Response(body, { headers });
}

const bytes = Uint8Array.from({ length: 200_003 }, (_, i) => (i * 7919) % 251);

describe('readBodyCapped', () => {
  it('reads the same bytes with a declared length, none, or a smaller one', async () => {
    const lengths: Array<Record<string, string>> = [
      { 'content-length': String(bytes.length) },
      {},
      { 'content-length': '1000' },
    ];
    for (const headers of lengths) {
      const read = await readBodyCapped(answer(bytes, 4096, headers), 1024 * 1024);
      expect(Buffer.from(read).equals(Buffer.from(bytes))).toBe(true);
    }
  });

  it('refuses a body past the cap whatever length it declared', async () => {
    await expect(
      readBodyCapped(answer(bytes, 4096, { 'content-length': '10' }), 100_000),
    ).rejects.toThrow(/larger than/);
    await expect(
      readBodyCapped(answer(bytes, 4096, { 'content-length': String(bytes.length) }), 100_000),
    ).rejects.toThrow(/larger than/);
  });
});
