// The status bar as the page showed it from its first moment: a page probe (launchApp's
// pageProbe, run before the app's own script at every load) records every change of the bar's
// state, words and tone, with the list's row count and the Changes and Conflicts counts beside it.
import type { Page } from 'playwright-core';

export type StatusEntry = {
  /** data-sync, or null before the bar is on the page. */
  kind: string | null;
  tone: string | null;
  text: string;
  /** What the customer list shows. */
  rows: number;
  /**
   * The Changes view's count: the queued changes the page knows of (its outbox mirror); null
   * while it shows none (the mirror not read yet).
   */
  changes: number | null;
  /** The Conflicts view's count of undecided conflicts; null while it shows none (not heard). */
  conflicts: number | null;
  at: number;
};

/** Runs in the page before the app: every status change from the start. */
export const STATUS_PROBE = `(() => {
  const log = [];
  globalThis.__statusLog = log;
  const sample = () => {
    const bar = document.querySelector('.sync-status');
    const list = document.querySelector('[aria-label="Customers"]');
    const views = document.querySelectorAll('nav.views button');
    const countOf = (button) => {
      const count = button ? button.getAttribute('data-count') : null;
      return count === null ? null : Number(count);
    };
    const entry = {
      kind: bar ? bar.getAttribute('data-sync') : null,
      tone: bar ? bar.getAttribute('data-tone') : null,
      text: bar ? (bar.querySelector('.text')?.textContent ?? '') : '',
      rows: Number(list ? (list.getAttribute('data-rows') ?? '0') : '0'),
      changes: countOf(views[0]),
      conflicts: countOf(views[1]),
      at: Math.round(performance.now()),
    };
    const last = log[log.length - 1];
    const keys = ['kind', 'tone', 'text', 'rows', 'changes', 'conflicts'];
    if (!last || keys.some((k) => last[k] !== entry[k])) log.push(entry);
  };
  new MutationObserver(sample).observe(document, {
    subtree: true,
    childList: true,
    characterData: true,
    attributes: true,
    attributeFilter: ['data-sync', 'data-tone', 'data-rows', 'data-count'],
  });
})();`;

/** Every entry the probe recorded since the page loaded (or the last clear). */
export const statusLog = (page: Page): Promise<StatusEntry[]> =>
  page.evaluate(() => (globalThis as unknown as { __statusLog: StatusEntry[] }).__statusLog);

export const clearStatusLog = (page: Page): Promise<void> =>
  page.evaluate(() => {
    (globalThis as unknown as { __statusLog: StatusEntry[] }).__statusLog.length = 0;
  });
