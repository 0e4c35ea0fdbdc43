// Main's V8 heap favours memory over speed. Main keeps a whole account's last pull and reads a
// large list in slices; with V8's default growth its heap grew to several times what it held
// live before a collection (the garbage of a pull, kept as RSS long after it). Main's work is
// I/O and parsing, not where V8's speed settings pay. Set once, when main starts (Electron's
// main.ts, the browser runner's launch), before its services allocate.
import { setFlagsFromString } from 'node:v8';

export function favourMemoryInMain(): void {
  setFlagsFromString('--optimize-for-size');
}
