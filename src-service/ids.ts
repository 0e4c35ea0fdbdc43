// Opaque 10-character alphanumeric object ids.
import { randomInt } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const ID_LENGTH = 10;

/** A fresh id from `next` (a 0..1 random source) or the crypto RNG. */
export function newId(next?: () => number): string {
  const codes = new Array<number>(ID_LENGTH);
  for (let i = 0; i < ID_LENGTH; i++) {
    const k = next ? Math.floor(next() * ALPHABET.length) : randomInt(ALPHABET.length);
    codes[i] = ALPHABET.charCodeAt(k);
  }
  return String.fromCharCode(...codes);
}
