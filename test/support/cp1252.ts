// Text as Windows-1252 bytes, the way Excel on Windows saves "CSV (Comma delimited)": written
// code by code from the code page's table (not through a decoder under test), so a test's file
// holds the real bytes: ü 0xFC, ø 0xF8, í 0xED, € 0x80, Œ 0x8C.
/** The code page's 0x80-0x9F row (0x81, 0x8D, 0x8F, 0x90 and 0x9D are unassigned). */
const ABOVE_ASCII: Record<string, number> = Object.fromEntries(
  [...'€\0‚ƒ„…†‡ˆ‰Š‹Œ\0Ž\0\0‘’“”•–—˜™š›œ\0žŸ']
    .map((char, i) => [char, 0x80 + i] as const)
    .filter(([char]) => char !== '\0'),
);

/** `text` in Windows-1252; throws on a character the code page does not have here. */
export function cp1252(text: string): Buffer {
  return Buffer.from(
    [...text].map((char) => {
      const code = char.codePointAt(0)!;
      if (code < 0x80 || (code >= 0xa0 && code <= 0xff)) return code;
      const mapped = ABOVE_ASCII[char];
      if (mapped === undefined) throw new Error(`${char} is not in this Windows-1252 table`);
      return mapped;
    }),
  );
}

/** `text` in UTF-16 little-endian after its byte-order mark, as Excel's "Unicode Text" saves. */
export function utf16leWithBom(text: string): Buffer {
  return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
}
