// What a keyboard and screen-reader user meets, read from the running page: the accessibility
// tree's focused node (Chromium's own, through CDP's Accessibility domain), and a list's active
// row (the listbox's aria-activedescendant, or a roving row that holds the focus).
import type { Page } from 'playwright-core';

export interface AxNode {
  role: string;
  name: string;
}

interface RawAxNode {
  ignored: boolean;
  role?: { value?: unknown };
  name?: { value?: unknown };
  properties?: Array<{ name: string; value: { value?: unknown } }>;
}

/** The node of Chromium's accessibility tree that has the focus (role and accessible name). */
export async function focusedAxNode(page: Page): Promise<AxNode | null> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as { nodes: RawAxNode[] };
    // The document's root counts as focused too: the element is the other one.
    const focused = nodes.find(
      (n) =>
        n.role?.value !== 'RootWebArea' &&
        !n.ignored &&
        n.properties?.some((p) => p.name === 'focused' && p.value.value === true),
    );
    if (!focused) return null;
    return { role: String(focused.role?.value ?? ''), name: String(focused.name?.value ?? '') };
  } finally {
    await cdp.detach();
  }
}

export interface ActiveRow {
  /** The element with the focus is the list itself (a listbox) or the row (a roving list). */
  listFocused: boolean;
  /** Its place in the whole list, from 1 (aria-posinset, or its place among the rows). */
  position: number;
  /** What the row's data-id (or a data-id inside it) names. */
  id: string | null;
  text: string;
  /** The row lies wholly inside the list's scrolled box. */
  inView: boolean;
  /** The list shows :focus-visible (the ring is for the keyboard) and the row has a ring. */
  ring: { focusVisible: boolean; outline: string; boxShadow: string };
  /** How many rows the DOM holds (a virtual list keeps only those near the view). */
  rendered: number;
}

/**
 * The active row of the list `selector` finds: the listbox's aria-activedescendant, or for a
 * list whose rows take the focus themselves, the focused row (`rows` selects them).
 */
export function activeRow(
  page: Page,
  selector: string,
  rows = '[role=option]',
): Promise<ActiveRow> {
  return page.evaluate(
    ([selector, rows]) => {
      const list = document.querySelector<HTMLElement>(selector);
      if (!list) throw new Error(`no list ${selector}`);
      const all = [...list.querySelectorAll<HTMLElement>(rows)];
      const descendant = list.getAttribute('aria-activedescendant');
      const row = descendant
        ? document.getElementById(descendant)
        : all.find((r) => r === document.activeElement);
      if (!row) throw new Error(`no active row in ${selector}`);
      const box = (list.closest('.viewport, .side-panel') ?? list).getBoundingClientRect();
      const at = row.getBoundingClientRect();
      const style = getComputedStyle(row);
      const focusedEl = descendant ? list : row;
      return {
        listFocused: document.activeElement === focusedEl,
        position: Number(row.getAttribute('aria-posinset') ?? all.indexOf(row) + 1),
        id:
          row.getAttribute('data-id') ??
          row.querySelector('[data-id]')?.getAttribute('data-id') ??
          null,
        text: row.textContent ?? '',
        inView: at.top >= box.top - 0.5 && at.bottom <= box.bottom + 0.5,
        ring: {
          focusVisible: focusedEl.matches(':focus-visible'),
          outline:
            style.outlineStyle === 'none' ? 'none' : `${style.outlineWidth} ${style.outlineStyle}`,
          boxShadow: style.boxShadow,
        },
        rendered: all.length,
      };
    },
    [selector, rows] as const,
  );
}

/** True when the ring is drawn: an outline at least 2 px wide, or a box-shadow. */
export function ringShown(row: ActiveRow): boolean {
  const width = Number.parseFloat(row.ring.outline);
  return (
    row.ring.focusVisible &&
    ((row.ring.outline !== 'none' && width >= 2) || row.ring.boxShadow !== 'none')
  );
}
