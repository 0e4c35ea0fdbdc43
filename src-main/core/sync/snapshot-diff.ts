// What changed between two pulls, record by record, so the renderer gets only the difference.
import { createHash } from 'node:crypto';

export interface RecordDiff<T> {
  upserted: T[];
  deleted: string[];
}

/**
 * A record's print: a hash of its JSON, what two pulls' copies are compared by. A hash, not the
 * JSON itself: main keeps the prints of every record between pulls, and saves them (pull.ts).
 */
export function printOf(record: unknown): string {
  return createHash('sha1').update(JSON.stringify(record)).digest('base64');
}

/** The print of each record by id: the comparison key of the next diff. */
export function fingerprint<T extends { id: string }>(records: T[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const r of records) out.set(r.id, printOf(r));
  return out;
}

/** Records fingerprinted before main's event loop is let go (a short task's worth of work). */
const PRINT_SLICE = 2_000;

/**
 * `fingerprint`, yielding main's event loop every PRINT_SLICE records: a large account's whole
 * map is a long task of hashing, which would hold every IPC call of the window.
 */
export async function fingerprintInSlices<T extends { id: string }>(
  records: T[],
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (let i = 0; i < records.length; i++) {
    const r = records[i]!;
    out.set(r.id, printOf(r));
    if ((i + 1) % PRINT_SLICE === 0) await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return out;
}

/** Records new or changed since `previous`, and ids gone. */
export function diffRecords<T extends { id: string }>(
  previous: ReadonlyMap<string, string>,
  next: T[],
  nextPrints: ReadonlyMap<string, string>,
): RecordDiff<T> {
  const upserted = next.filter((r) => previous.get(r.id) !== nextPrints.get(r.id));
  const deleted = [...previous.keys()].filter((id) => !nextPrints.has(id));
  return { upserted, deleted };
}
