// The customer popup, built from text nodes only: user text can never become markup.
import type { CustomerView } from '../types';
import { colorHex } from './style/colors';

function line(doc: Document, className: string, text: string): HTMLElement {
  const el = doc.createElement('div');
  el.className = className;
  el.textContent = text;
  return el;
}

/** Popup content for a customer: name, company, address, color, pending mark. */
export function customerPopupContent(c: CustomerView, doc: Document = document): HTMLElement {
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
  return root;
}
