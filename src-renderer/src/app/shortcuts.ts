// The app's keyboard shortcuts: one table for the handler and the help panel.
import { text } from './text';

export type ShortcutAction =
  | 'new-customer'
  | 'focus-search'
  | 'sync-now'
  | 'save'
  | 'route-builder'
  | 'week-plan'
  | 'changes'
  | 'close';

/** Keys and what they do, as the help panel lists them. */
export const SHORTCUTS: ReadonlyArray<readonly [string, string]> = [
  ['N', text.shortcuts.newCustomer],
  ['/', text.shortcuts.search],
  ['R', text.shortcuts.route],
  ['W', text.shortcuts.week],
  ['G', text.shortcuts.changes],
  [text.shortcuts.keys.ctrlS, text.shortcuts.save],
  [text.shortcuts.keys.ctrlShiftS, text.shortcuts.sync],
  [text.shortcuts.keys.esc, text.shortcuts.close],
];

function typingIn(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return (
    target.isContentEditable ||
    target instanceof HTMLInputElement ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement
  );
}

/** The action a key press asks for, or null. Single letters never fire while typing. */
export function shortcutOf(event: KeyboardEvent): ShortcutAction | null {
  const ctrl = event.ctrlKey || event.metaKey;
  const key = event.key.toLowerCase();
  if (ctrl && event.shiftKey && key === 's') return 'sync-now';
  if (ctrl && !event.shiftKey && key === 's') return 'save';
  if (event.key === 'Escape') return 'close';
  if (ctrl || event.altKey || typingIn(event.target)) return null;
  if (key === 'n') return 'new-customer';
  if (event.key === '/') return 'focus-search';
  if (key === 'r') return 'route-builder';
  if (key === 'w') return 'week-plan';
  if (key === 'g') return 'changes';
  return null;
}
