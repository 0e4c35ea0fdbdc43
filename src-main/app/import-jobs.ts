// Imports of customers: an import's checked rows become queued creates, handed to the outbox
// in order, with progress kept on disk so a restart resumes where it stopped, and no row is
// ever created twice.
//
// Why never twice: row i has a temp id derived from (import id, i), so the outbox refuses a
// second create for it while the first is queued. What the outbox no longer holds (done) the
// progress file covers: before a batch is handed over its rows are written down as "intent",
// after it as "queued". On resume, rows still under intent are the only uncertain ones: a row
// whose temp id is in the outbox is queued; otherwise the service is asked (search by name)
// whether a customer with the row's name and address exists, since the import refused rows
// that duplicated an existing customer. Only proven-absent rows are queued again.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import * as v from 'valibot';
import {
  duplicateKey,
  ImportStatusSchema,
  MAX_IMPORT_ROWS,
  StartImportRequestSchema,
  type ImportStatus,
  type StartImportRequest,
} from '../../src-shared/csv-customers';
import { CustomerFieldsSchema, type CustomerFields } from '../../src-shared/domain';
import type { Clock } from '../core/ports';
import { accountDirOf } from './accounts-index';
import { AppError } from './app-error';
import { nodeDurableFs, type DurableFs } from '../core/durable-fs';
import type { CurrentSession } from './session-manager';

/** Rows handed to the outbox between two progress writes. */
const BATCH = 10;
/** A sync is asked for after this many queued rows, so sending starts while queuing goes on. */
const SYNC_EVERY = 50;

// The resume files are read back after a restart and trusted to say which rows were queued, so
// they are read strictly: exactly these keys, in the bounds start() writes, and a rows file no
// larger than MAX_ROWS_FILE_BYTES is parsed at all.
const count = v.pipe(v.number(), v.integer(), v.minValue(0));

const RowsFileSchema = v.strictObject({
  version: v.literal(1),
  importId: v.pipe(v.string(), v.uuid()),
  fileName: v.pipe(v.string(), v.maxLength(500)),
  startedAt: count,
  rows: v.pipe(v.array(CustomerFieldsSchema), v.minLength(1), v.maxLength(MAX_IMPORT_ROWS)),
});
type RowsFile = v.InferOutput<typeof RowsFileSchema>;

const ProgressSchema = v.pipe(
  v.strictObject({
    version: v.literal(1),
    /** Rows 0..queued-1 are in the outbox or on the service. */
    queued: count,
    /** Rows queued..intent-1 may have been handed over (a crash mid-batch). */
    intent: count,
  }),
  v.check((p) => p.queued <= p.intent, 'queued is past intent'),
);
type Progress = v.InferOutput<typeof ProgressSchema>;

/** A rows file's largest size: 50,000 rows of long fields, far under what would stall main. */
const MAX_ROWS_FILE_BYTES = 256 * 1024 * 1024;
const MAX_PROGRESS_FILE_BYTES = 4096;

/** A resume file: absent, its JSON, or damaged (unreadable, over its size, not JSON). */
async function readResumeFile(
  fs: DurableFs,
  file: string,
  maxBytes: number,
): Promise<{ missing: true } | { missing: false; json: unknown }> {
  try {
    if ((await fs.ops.stat(file)).size > maxBytes) return { missing: false, json: undefined };
    const text = (await fs.ops.readFile(file)).toString('utf8');
    return { missing: false, json: JSON.parse(text) as unknown };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { missing: true };
    return { missing: false, json: undefined };
  }
}

/** The temp id of row `index` of an import: a UUID-shaped hash, the same on every run. */
export function importTempId(importId: string, index: number): string {
  const hex = createHash('sha256').update(`fieldmap-import:${importId}:${index}`).digest('hex');
  // Version 4 / variant 10 nibbles, so it reads as any other UUID.
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `tmp_${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export interface ImportJobsOptions {
  dataDir: string;
  /** The current session (null when signed out). */
  session: () => CurrentSession | null;
  /** The account's request rate, for the time left. */
  ratePerSecond: number;
  clock: Clock;
  fs?: DurableFs;
}

interface Job {
  accountKey: string;
  file: RowsFile;
  progress: Progress;
  tempIds: string[];
  running: Promise<void> | null;
  paused: boolean;
}

export class ImportJobs {
  readonly #o: ImportJobsOptions;
  readonly #fs: DurableFs;
  readonly #jobs = new Map<string, Job>();
  #disposed = false;

  constructor(options: ImportJobsOptions) {
    this.#o = options;
    this.#fs = options.fs ?? nodeDurableFs;
  }

  /** Starts an import (the same import id again answers its status). */
  async start(input: StartImportRequest): Promise<ImportStatus> {
    const request = v.parse(StartImportRequestSchema, input);
    const session = this.#need();
    await this.#load(session);
    let job = this.#jobs.get(request.importId);
    if (!job) {
      const file: RowsFile = {
        version: 1,
        importId: request.importId,
        fileName: request.fileName,
        startedAt: this.#o.clock.now(),
        rows: request.rows,
      };
      const progress: Progress = { version: 1, queued: 0, intent: 0 };
      const dir = this.#dir(session.account.accountKey);
      await this.#fs.writeJson(join(dir, `${request.importId}.rows.json`), file);
      await this.#fs.writeJson(join(dir, `${request.importId}.progress.json`), progress);
      job = this.#add(session.account.accountKey, file, progress);
    }
    this.#run(job, session);
    return this.#status(job, session);
  }

  /** The current account's imports; unfinished ones are resumed. */
  async list(): Promise<ImportStatus[]> {
    const session = this.#o.session();
    if (!session) return [];
    await this.#load(session);
    const out: ImportStatus[] = [];
    for (const job of this.#jobs.values()) {
      if (job.accountKey !== session.account.accountKey) continue;
      this.#run(job, session);
      out.push(this.#status(job, session));
    }
    return out.sort((a, b) => a.startedAt - b.startedAt);
  }

  /** Forgets a finished import (its files go). False when unknown or still running. */
  async dismiss(importId: string): Promise<boolean> {
    const session = this.#need();
    await this.#load(session);
    const job = this.#jobs.get(importId);
    if (!job || job.accountKey !== session.account.accountKey) return false;
    if (this.#status(job, session).state !== 'done') return false;
    this.#jobs.delete(importId);
    const dir = this.#dir(job.accountKey);
    await this.#fs.remove(join(dir, `${importId}.rows.json`));
    await this.#fs.remove(join(dir, `${importId}.progress.json`));
    return true;
  }

  /** Stops every job after its current batch (the progress on disk stays consistent). */
  async dispose(): Promise<void> {
    this.#disposed = true;
    await Promise.all([...this.#jobs.values()].map((j) => j.running?.catch(() => undefined)));
  }

  /** Resolves when the job has handed every row to the outbox (or stopped). For tests and callers that wait. */
  async settled(importId: string): Promise<void> {
    await this.#jobs.get(importId)?.running;
  }

  #need(): CurrentSession {
    const session = this.#o.session();
    if (!session) throw new AppError('NotSignedIn');
    return session;
  }

  #dir(accountKey: string): string {
    return join(accountDirOf(this.#o.dataDir, accountKey), 'imports');
  }

  #add(accountKey: string, file: RowsFile, progress: Progress): Job {
    const tempIds = file.rows.map((_, i) => importTempId(file.importId, i));
    const job: Job = { accountKey, file, progress, tempIds, running: null, paused: false };
    this.#jobs.set(file.importId, job);
    return job;
  }

  /** Reads the account's jobs from disk once (after a restart). */
  async #load(session: CurrentSession): Promise<void> {
    const accountKey = session.account.accountKey;
    if ([...this.#jobs.values()].some((j) => j.accountKey === accountKey)) return;
    const dir = this.#dir(accountKey);
    let names: string[];
    try {
      names = await this.#fs.ops.readdir(dir);
    } catch {
      return;
    }
    for (const name of names.filter((n) => n.endsWith('.rows.json'))) {
      const importId = name.slice(0, -'.rows.json'.length);
      if (this.#jobs.has(importId)) continue;
      const rowsFile = await readResumeFile(this.#fs, join(dir, name), MAX_ROWS_FILE_BYTES);
      const file = v.safeParse(RowsFileSchema, rowsFile.missing ? undefined : rowsFile.json);
      if (!file.success || file.output.importId !== importId) {
        // Left on disk as it is: nothing is queued from a file that cannot be trusted.
        console.warn(`[fieldmap] import ${importId.slice(0, 40)}: its rows file is damaged`);
        continue;
      }
      const rows = file.output.rows.length;
      const progressFile = await readResumeFile(
        this.#fs,
        join(dir, `${importId}.progress.json`),
        MAX_PROGRESS_FILE_BYTES,
      );
      const progress = v.safeParse(
        ProgressSchema,
        progressFile.missing ? undefined : progressFile.json,
      );
      this.#add(
        accountKey,
        file.output,
        progress.success && progress.output.intent <= rows
          ? progress.output
          : progressFile.missing
            ? // A rows file without progress was never started: nothing of it was queued.
              { version: 1, queued: 0, intent: 0 }
            : // Damaged progress: any row may have been handed over, so each is checked
              // (outbox, then service) before it is queued again, as after a crash mid-batch.
              { version: 1, queued: 0, intent: rows },
      );
    }
  }

  #run(job: Job, session: CurrentSession): void {
    if (job.running || job.progress.queued >= job.file.rows.length) return;
    job.paused = false;
    job.running = this.#queueRows(job, session)
      .catch(() => {
        // Offline during a resume check, or the account closed: resumed by the next list().
        job.paused = true;
      })
      .finally(() => {
        job.running = null;
      });
  }

  async #queueRows(job: Job, session: CurrentSession): Promise<void> {
    const { outbox, engine } = session.runtime;
    const rows = job.file.rows;
    const current = () => !this.#disposed && this.#o.session()?.runtime === session.runtime;
    if (job.progress.intent > job.progress.queued) await this.#settleIntent(job, session);
    let sinceSync = 0;
    while (job.progress.queued < rows.length) {
      const from = job.progress.queued;
      const to = Math.min(rows.length, from + BATCH);
      await this.#write(job, { version: 1, queued: from, intent: to });
      const inOutbox = this.#queuedTempIds(session);
      for (let i = from; i < to; i++) {
        if (!current()) {
          // A clean stop between rows: exactly rows 0..i-1 went, nothing is uncertain.
          await this.#write(job, { version: 1, queued: i, intent: i });
          throw new Error('import paused');
        }
        if (!inOutbox.has(job.tempIds[i]!)) {
          await outbox.enqueue({
            kind: 'createCustomer',
            target: job.tempIds[i]!,
            payload: rows[i]!,
            base: null,
          });
        }
        // Each row handed over counts at once, so a stop mid-batch records exactly what went.
        job.progress = { version: 1, queued: i + 1, intent: to };
      }
      await this.#write(job, { version: 1, queued: to, intent: to });
      sinceSync += to - from;
      if (sinceSync >= SYNC_EVERY) {
        sinceSync = 0;
        void engine.syncNow().catch(() => undefined);
      }
    }
    void engine.syncNow().catch(() => undefined);
  }

  /** After a crash mid-batch: which of the uncertain rows already reached the outbox or the service. */
  async #settleIntent(job: Job, session: CurrentSession): Promise<void> {
    const inOutbox = this.#queuedTempIds(session);
    let queued = job.progress.queued;
    for (let i = job.progress.queued; i < job.progress.intent; i++) {
      const handedOver =
        inOutbox.has(job.tempIds[i]!) || (await this.#onService(session, job.file.rows[i]!));
      if (!handedOver) break;
      queued = i + 1;
    }
    // Rows after the first absent one are checked again as the loop hands them over.
    await this.#write(job, { version: 1, queued, intent: queued });
  }

  async #onService(session: CurrentSession, row: CustomerFields): Promise<boolean> {
    const term = row.name.trim();
    if (term === '') return false;
    const found = await session.runtime.client.searchCustomers(term, { priority: 'user' });
    const key = duplicateKey(row);
    return found.some((c) => duplicateKey(c) === key);
  }

  /** Customer creates the outbox holds, by temp id, with their state. */
  #queuedTempIds(session: CurrentSession): Map<string, string> {
    const out = new Map<string, string>();
    for (const op of session.runtime.outbox.list()) {
      if (op.kind === 'createCustomer') out.set(op.target, op.state);
    }
    return out;
  }

  async #write(job: Job, progress: Progress): Promise<void> {
    await this.#fs.writeJson(
      join(this.#dir(job.accountKey), `${job.file.importId}.progress.json`),
      progress,
    );
    job.progress = progress;
  }

  #status(job: Job, session: CurrentSession): ImportStatus {
    const states = this.#queuedTempIds(session);
    let waiting = 0;
    let needsAttention = 0;
    for (let i = 0; i < job.progress.queued; i++) {
      const state = states.get(job.tempIds[i]!);
      if (state === 'needs-attention') needsAttention++;
      else if (state !== undefined) waiting++;
    }
    const total = job.file.rows.length;
    const notQueued = total - job.progress.queued;
    const left = notQueued + waiting;
    const state: ImportStatus['state'] =
      left === 0 ? 'done' : job.paused ? 'paused' : notQueued > 0 ? 'queuing' : 'sending';
    const rate = this.#o.ratePerSecond;
    return v.parse(ImportStatusSchema, {
      importId: job.file.importId,
      fileName: job.file.fileName,
      startedAt: job.file.startedAt,
      total,
      queued: job.progress.queued,
      waiting,
      needsAttention,
      created: job.progress.queued - waiting - needsAttention,
      state,
      // About one request per create (the list GETs of a round are shared by up to 150).
      etaSeconds: rate > 0 ? Math.ceil((left * 1.02) / rate) : null,
    });
  }
}
