// The customer popup, built from text nodes only: user text can never become markup.
import type { CustomerView } from '../types';
import { colorHex } from './style/colors';

function line(doc: Document, className: string, text: string): HTMLElement {
  const el = doc.createElement('div');
  el.className = className;
  el.textContent = text;
  return el;
}

/** A button under the popup's text: what the rep can do from the pin. */
export interface PopupAction {
  label: string;
  run: (id: string) => void;
  /** A class naming the button (tests and styles find it by it). */
  className?: string;
  /** An action done once (e.g. "Add to plan"): while `done(id)`, the button reads `doneLabel` and is off. */
  done?: { test: (id: string) => boolean; label: string };
}

/** Popup content for a customer: name, company, address, color, pending mark, actions. */
export function customerPopupContent(
  c: CustomerView,
  doc: Document = document,
  actions: readonly PopupAction[] = [],
): HTMLElement {
  const root = doc.createElement('div');
  root.className = 'fm-popup';
  root.append(line(doc, 'fm-popup-name', c.name || '(no name)'));
  if (c.company) root.append(line(doc, 'fm-popup-company', c.company));
  const street = c.address;
  const place = [c.zip, c.city, c.state].filter(Boolean).join(' ');
  const address = [street, place, c.country].filter(Boolean).join(', ');
  if (address) root.append(line(doc, 'fm-popup-address', address));
  const color = line(doc, 'fm-popup-color', c.color);
  const swatch = doc.createElement('span');
  swatch.className = 'fm-popup-swatch';
  swatch.style.backgroundColor = colorHex(c.color);
  color.prepend(swatch);
  root.append(color);
  if (c.pending) root.append(line(doc, 'fm-popup-pending', 'Changes not yet synced'));
  if (actions.length > 0) {
    const bar = doc.createElement('div');
    bar.className = 'fm-popup-actions';
    for (const action of actions) {
      const button = doc.createElement('button');
      button.type = 'button';
      button.className = action.className ? `fm-button ${action.className}` : 'fm-button';
      const show = () => {
        const done = action.done?.test(c.id) === true;
        button.textContent = done ? action.done!.label : action.label;
        button.disabled = done;
      };
      show();
      button.addEventListener('click', () => {
        action.run(c.id);
        show();
      });
      bar.append(button);
    }
    root.append(bar);
  }
  return root;
}
