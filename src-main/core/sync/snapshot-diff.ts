// What changed between two pulls, record by record, so the renderer gets only the difference.

export interface RecordDiff<T> {
  upserted: T[];
  deleted: string[];
}

/** JSON of each record by id: the comparison key of the next diff. */
export function fingerprint<T extends { id: string }>(records: T[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const r of records) out.set(r.id, JSON.stringify(r));
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
