// Main's log file: typed events (events.ts) as JSON lines in a rotating file (log-file.ts) in
// the app's logs folder. Support reads it when something went wrong on a rep's laptop.
import type { Clock } from '../ports';
import { logLine, type LogEvent, type LogFields } from './events';
import { RotatingLogFile, type LogFileOptions } from './log-file';

/** What the rest of main writes to the log through. */
export interface AppLogPort {
  record<E extends LogEvent>(event: E, fields: LogFields<E>): void;
}

/** For code that runs without a log (tests of other parts, tools). */
export const noLog: AppLogPort = { record: () => undefined };

export class AppLog implements AppLogPort {
  readonly #file: RotatingLogFile;
  readonly #clock: Pick<Clock, 'now'>;

  constructor(options: LogFileOptions & { clock: Pick<Clock, 'now'> }) {
    this.#clock = options.clock;
    this.#file = new RotatingLogFile({
      ...options,
      droppedLine: (count) => logLine(this.#clock.now(), 'log.dropped', { count }),
    });
  }

  /** The folder the log's files are in (Help > Show logs opens it). */
  get dir(): string {
    return this.#file.dir;
  }

  /** The log's files, newest first. */
  paths(): string[] {
    return this.#file.paths();
  }

  record<E extends LogEvent>(event: E, fields: LogFields<E>): void {
    this.#file.append(logLine(this.#clock.now(), event, fields));
  }

  /** Resolves once everything recorded so far is on disk (or given up on). */
  flush(): Promise<void> {
    return this.#file.flush();
  }
}
