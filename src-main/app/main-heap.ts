// Main's V8 heap grows by half its live size between full collections, not by V8's default of
// up to several times it. Main keeps a whole account's last pull and reads a large list in
// slices: with the default growth a pull's garbage stayed as RSS long after it. A smaller step
// costs main some more collections (--optimize-for-size, which also does this, cost several
// times the CPU of a pull). Set once, when main starts (Electron's main.ts, the browser
// runner's launch), before its services allocate.
import { setFlagsFromString } from 'node:v8';

export function favourMemoryInMain(): void {
  setFlagsFromString('--heap-growing-percent=50');
}
