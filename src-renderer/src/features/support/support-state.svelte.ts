// What the page does for support: reports its uncaught errors to main's log (class name and
// frames in the app's own bundle, never the message, which may quote a customer), and shows why
// main reloaded it (a crash or a hang) once it is back.
import {
  appStackFrames,
  noticeText,
  type RendererErrorReport,
} from '../../../../src-shared/support';
import type { FieldmapApi } from '../../../../src-shared/ipc-contract';

/** Reports past this many in one page load are not sent (main rate-limits the rest too). */
const MAX_REPORTS = 100;

export class SupportState {
  #notice = $state<string | null>(null);
  #sent = 0;

  constructor(private readonly api: FieldmapApi) {}

  /** The message about the reload, until the rep dismisses it. */
  get notice(): string | null {
    return this.#notice;
  }

  dismiss(): void {
    this.#notice = null;
  }

  /** Asks main once why this page was loaded, and starts reporting errors. */
  start(target: Window = window): () => void {
    void this.api
      .takeNotice()
      .then((notice) => {
        if (notice) this.#notice = noticeText(notice);
      })
      .catch(() => undefined);
    const assets = new URL('/assets/', target.location.href).href;
    const onError = (event: ErrorEvent) => this.#report('error', event.error, assets);
    const onRejection = (event: PromiseRejectionEvent) =>
      this.#report('unhandledrejection', event.reason, assets);
    target.addEventListener('error', onError);
    target.addEventListener('unhandledrejection', onRejection);
    return () => {
      target.removeEventListener('error', onError);
      target.removeEventListener('unhandledrejection', onRejection);
    };
  }

  #report(source: RendererErrorReport['source'], error: unknown, assets: string): void {
    if (this.#sent >= MAX_REPORTS) return;
    this.#sent += 1;
    const name =
      error instanceof Error && /^[A-Z][A-Za-z0-9]{0,63}$/.test(error.name)
        ? error.name
        : 'NonError';
    const stack = error instanceof Error ? (error.stack ?? '') : '';
    // A failed report is dropped: reporting it would be another error to report.
    void this.api
      .reportError({ source, name, frames: appStackFrames(stack, assets) })
      .catch(() => undefined);
  }
}
