// Keyboard focus over a short list whose rows hold their own buttons (the Changes view, a
// route's stops): WAI-ARIA APG's roving tabindex. The list is one tab stop, the row that had the
// focus last; arrows, Page Up/Down and Home/End move the focus between rows (focus() scrolls
// the row into view), Enter opens the row. Keys pressed on a button inside a row stay its own.

export class RovingRows {
  #active = $state(0);

  /** Row `index` of `count`: only the active row is a tab stop. */
  tabindex(index: number, count: number): 0 | -1 {
    return index === Math.min(this.#active, count - 1) ? 0 : -1;
  }

  /** The focus went into row `index` (a Tab, a click on one of its buttons). */
  focused(index: number): void {
    this.#active = index;
  }

  /** The list's keydown: `rows` are its row elements, in order. */
  onkeydown(event: KeyboardEvent, rows: HTMLElement[], open?: (index: number) => void): void {
    const at = rows.indexOf(event.target as HTMLElement);
    if (at < 0 || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (event.key === 'Enter') {
      if (!open) return;
      event.preventDefault();
      return open(at);
    }
    const to = target(event.key, at, rows);
    if (to === null) return;
    event.preventDefault();
    this.#active = to;
    rows[to]?.focus();
  }
}

function target(key: string, at: number, rows: HTMLElement[]): number | null {
  const last = rows.length - 1;
  switch (key) {
    case 'ArrowDown':
      return Math.min(last, at + 1);
    case 'ArrowUp':
      return Math.max(0, at - 1);
    case 'Home':
      return 0;
    case 'End':
      return last;
    case 'PageDown':
      return Math.min(last, at + pageOf(rows, at));
    case 'PageUp':
      return Math.max(0, at - pageOf(rows, at));
    default:
      return null;
  }
}

/** How many rows from `at` fit in the scrolled box the list sits in (at least one). */
function pageOf(rows: HTMLElement[], at: number): number {
  const row = rows[at];
  const box = row?.closest('.side-panel') ?? row?.parentElement;
  if (!row || !box) return 1;
  return Math.max(1, Math.floor(box.clientHeight / Math.max(1, row.offsetHeight)) - 1);
}
