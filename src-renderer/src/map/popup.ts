// The customer popup, built from text nodes only: user text can never become markup.
import { Popup, type LngLatLike, type Map as MapLibreMap } from 'maplibre-gl';
import type { CustomerView } from '../types';
import { colorHex } from '../../../src-shared/palette';
import { text } from './text';

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
  if (c.pending) root.append(line(doc, 'fm-popup-pending', text.popup.pending));
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

/**
 * The selected customer's popup on the map: opened for a customer, changed in place when its
 * record changes (new data with the popup open), closed by the map or by the rep (its x).
 */
export class CustomerPopup {
  #popup: Popup | null = null;
  #id: string | null = null;
  /** The record shown and the content's root element. */
  #shown: { customer: CustomerView; root: HTMLElement } | null = null;

  /** `onClosed`: the rep closed the popup of `id` (its x button). */
  constructor(
    private readonly map: MapLibreMap,
    private readonly actions: readonly PopupAction[],
    private readonly onClosed: (id: string) => void,
  ) {}

  /** The customer whose popup is open, or null. */
  get id(): string | null {
    return this.#id;
  }

  /**
   * Shows `customer` at `position`. The open popup of the same customer is changed in place (or
   * left alone for the same record): opened again, it took the focus to its first button on
   * every pull or edit (the rep typing in the search box lost the caret), and was built twice
   * per edit.
   */
  show(customer: CustomerView, position: LngLatLike): void {
    const shown = this.#shown;
    if (this.#popup && shown && customer.id === this.#id) {
      if (shown.customer === customer) return;
      const root = customerPopupContent(customer, document, this.actions);
      const focused = shown.root.contains(document.activeElement);
      shown.root.replaceWith(root);
      this.#shown = { customer, root };
      this.#popup.setLngLat(position);
      if (focused) root.querySelector('button')?.focus();
      return;
    }
    this.close();
    const root = customerPopupContent(customer, document, this.actions);
    // Opened from the map (a pin clicked) it takes the focus to its first button, as MapLibre's
    // popups do; opened from elsewhere (a list row, Enter in the list) it leaves the focus where
    // the rep is, so the keyboard goes on there and a closing panel gives it back to that place.
    const active = document.activeElement;
    const fromMap =
      active === null || active === document.body || this.map.getContainer().contains(active);
    const popup = new Popup({
      closeOnClick: false,
      offset: 12,
      maxWidth: '280px',
      focusAfterOpen: fromMap,
    })
      .setLngLat(position)
      .setDOMContent(root);
    const id = customer.id;
    popup.on('close', () => {
      // Closed by the rep (the x button). Our own closes unset #popup first.
      if (this.#popup !== popup) return;
      this.#popup = null;
      this.#id = null;
      this.#shown = null;
      this.onClosed(id);
    });
    this.#popup = popup;
    this.#id = id;
    this.#shown = { customer, root };
    popup.addTo(this.map);
  }

  close(): void {
    const popup = this.#popup;
    this.#popup = null;
    this.#id = null;
    this.#shown = null;
    popup?.remove();
  }
}
