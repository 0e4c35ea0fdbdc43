// Rebuilding the queue when an outbox opens: the snapshot, then the journal's records after it
// (the journal already dropped a torn last line). Ops that were 'in-flight' when the process
// died stay 'in-flight': nobody knows whether the service got them, so the sync engine treats
// them as ambiguous and reconciles before any resend.
import * as v from 'valibot';
import type { ChangeSet, Entry } from './coalesce';
import { outboxInternal } from './errors';
import type { RecoveredFiles } from './journal';
import { RecordSchema, SnapshotSchema } from './records';

/** What recovery found on open (for logs and the crash test). */
export interface RecoveryReport {
  snapshotOps: number;
  journalRecords: number;
  /** Bytes of a torn last line that were dropped (a kill during an append). */
  tornTailBytes: number;
  /** Damaged lines in the middle of the journal (disk corruption), skipped. */
  corruptLines: number;
  /** Ops found in flight: outcome unknown, to be reconciled by the engine. */
  inFlight: number;
}

/** The queue as the files hold it, and where the outbox goes on from. */
export interface Recovered {
  entries: Map<string, Entry>;
  seq: number;
  nextPos: number;
  recordsSinceSnapshot: number;
  report: RecoveryReport;
}

/** Ops are shared with callers by reference: frozen, so no caller can change the queue behind its back. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/** Applies one journal record's change to the queue's entries. */
export function applyRecord(entries: Map<string, Entry>, change: ChangeSet): void {
  for (const opId of change.del) entries.delete(opId);
  for (const entry of change.put) entries.set(entry.op.opId, deepFreeze(entry));
}

/** The queue of `accountKey` from its files; throws when they are not this account's outbox. */
export function recover(files: RecoveredFiles, accountKey: string): Recovered {
  const entries = new Map<string, Entry>();
  const report: RecoveryReport = {
    snapshotOps: 0,
    journalRecords: 0,
    tornTailBytes: files.tornTailBytes,
    corruptLines: files.corruptLines,
    inFlight: 0,
  };
  let seq = 0;
  let recordsSinceSnapshot = 0;
  if (files.snapshot !== null) {
    const parsed = v.safeParse(SnapshotSchema, files.snapshot);
    if (!parsed.success) {
      throw outboxInternal('The outbox snapshot has an unknown shape.', v.summarize(parsed.issues));
    }
    seq = parsed.output.seq;
    for (const entry of parsed.output.entries) entries.set(entry.op.opId, entry);
    report.snapshotOps = parsed.output.entries.length;
  }
  for (const raw of files.records) {
    const parsed = v.safeParse(RecordSchema, raw);
    if (!parsed.success) {
      throw outboxInternal(
        'An outbox journal record has an unknown shape.',
        v.summarize(parsed.issues),
      );
    }
    // Records at or below the snapshot's seq survived a compaction that died before truncating.
    if (parsed.output.seq <= seq) continue;
    applyRecord(entries, parsed.output);
    seq = parsed.output.seq;
    report.journalRecords += 1;
    recordsSinceSnapshot += 1;
  }
  let nextPos = 0;
  for (const { pos, op } of entries.values()) {
    nextPos = Math.max(nextPos, pos + 1);
    if (op.accountKey !== accountKey) {
      throw outboxInternal(
        'This outbox holds changes of another account; refusing to mix them.',
        `${op.accountKey} is not ${accountKey}`,
      );
    }
    if (op.state === 'in-flight') report.inFlight += 1;
  }
  return { entries, seq, nextPos, recordsSinceSnapshot, report };
}
