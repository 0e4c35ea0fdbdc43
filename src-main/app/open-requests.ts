// "Open this customer" from outside the page: a reminder's notification clicked, or a
// fieldmap:// link (a calendar event's). The request waits here until the page takes it, so it
// is neither lost while the window is opening (a click on macOS with the window closed, a link
// that started the app) nor acted on twice: main only pings 'customer:open', and the page,
// on that ping or when it starts, takes what waits.
import type { EmitEvent } from '../core/ports';

export interface OpenRequest {
  /** The account it belongs to; null: whichever is open (a link names no account). */
  accountKey: string | null;
  /** Null: "Due today" (a notification that named several reminders). */
  customerId: string | null;
}

export class OpenRequests {
  #waiting: OpenRequest | null = null;

  constructor(private readonly emit: EmitEvent) {}

  request(request: OpenRequest): void {
    this.#waiting = request;
    this.emit('customer:open', {});
  }

  /** What waits, once. */
  take(): OpenRequest | null {
    const waiting = this.#waiting;
    this.#waiting = null;
    return waiting;
  }
}
