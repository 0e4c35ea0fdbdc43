// A planned day as a printable sheet (PDF): the day on the map, then each stop in order with its
// times, name, address, phone and notes. Written with jsPDF in the page (loaded when the rep
// asks for a sheet), with DejaVu Sans embedded, so names in any Latin, Greek or Cyrillic script
// print as typed (the PDF's built-in fonts know Windows-1252 only).
import type { CustomerView } from '../../types';
import type { DaySchedule } from './week-plan-days';
import { format } from '../../ui/format';
import { text } from './text';

export interface DaySheet {
  /** "Mon 23 Nov". */
  dayLabel: string;
  schedule: DaySchedule;
  startMin: number;
  customerOf: (id: string) => CustomerView | undefined;
  /** The day on the map; null: no map on the sheet. */
  map: SheetMap | null;
}

/** A map image as PNG, with its size in pixels. */
export interface SheetMap {
  png: Uint8Array;
  width: number;
  height: number;
}

const PAGE = { width: 210, height: 297, margin: 15 };
const FONT = 'DejaVuSans';

/** One line of text per field that has one: name, address, phone, notes. */
function stopLines(customer: CustomerView | undefined): { name: string; details: string[] } {
  if (!customer) return { name: text.sheet.goneCustomer, details: [] };
  const address = [customer.address, customer.city, customer.state, customer.zip, customer.country]
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .join(', ');
  return {
    name: customer.name.trim() || customer.company.trim() || text.sheet.noName,
    details: [
      customer.company.trim() && customer.name.trim() ? customer.company.trim() : '',
      address,
      customer.phone.trim() && text.sheet.phone(customer.phone.trim()),
      customer.notes.trim() && text.sheet.notes(customer.notes.trim()),
    ].filter((s) => s !== ''),
  };
}

function base64(bytes: ArrayBuffer): string {
  const view = new Uint8Array(bytes);
  let text = '';
  for (let i = 0; i < view.length; i += 0x8000)
    text += String.fromCharCode(...view.subarray(i, i + 0x8000));
  return btoa(text);
}

/** The font files, from the app's own assets. */
export async function loadSheetFonts(
  base: string,
): Promise<{ regular: ArrayBuffer; bold: ArrayBuffer }> {
  const read = async (file: string) => {
    const response = await fetch(new URL(`fonts/${file}`, base));
    if (!response.ok) throw new Error(`the font ${file} is missing (${response.status})`);
    return response.arrayBuffer();
  };
  const [regular, bold] = await Promise.all([read('DejaVuSans.ttf'), read('DejaVuSans-Bold.ttf')]);
  return { regular, bold };
}

export async function daySheetPdf(
  sheet: DaySheet,
  fonts: { regular: ArrayBuffer; bold: ArrayBuffer },
): Promise<Blob> {
  const { jsPDF } = await import('jspdf');
  const doc = new jsPDF({ unit: 'mm', format: 'a4' });
  doc.addFileToVFS(`${FONT}.ttf`, base64(fonts.regular));
  doc.addFont(`${FONT}.ttf`, FONT, 'normal');
  doc.addFileToVFS(`${FONT}-Bold.ttf`, base64(fonts.bold));
  doc.addFont(`${FONT}-Bold.ttf`, FONT, 'bold');
  doc.setProperties({ title: text.sheet.title(sheet.dayLabel), creator: 'Fieldmap' });
  // 10 pt at 1.4: ~5 mm a line, what the rows below are measured in.
  doc.setLineHeightFactor(1.4);

  const { schedule } = sheet;
  const left = PAGE.margin;
  const width = PAGE.width - 2 * PAGE.margin;
  const bottom = PAGE.height - PAGE.margin;
  let y = PAGE.margin + 6;
  doc.setFont(FONT, 'bold').setFontSize(16).text(text.sheet.heading(sheet.dayLabel), left, y);
  y += 7;
  const back = schedule.visits.length > 0 ? text.sheet.back(schedule.returnMin) : '';
  doc
    .setFont(FONT, 'normal')
    .setFontSize(10)
    .text(text.sheet.summary(schedule.visits.length, schedule.km, sheet.startMin, back), left, y);
  y += 5;
  if (sheet.map) {
    const height = Math.min(110, (width * sheet.map.height) / sheet.map.width);
    const mapWidth = (height * sheet.map.width) / sheet.map.height;
    doc.addImage(sheet.map.png, 'PNG', left, y, mapWidth, height);
    y += height + 6;
  }

  const textX = left + 36;
  const textWidth = width - 36;
  schedule.visits.forEach((visit, i) => {
    const { name, details } = stopLines(sheet.customerOf(visit.id));
    doc.setFontSize(10);
    const wrapped = details.flatMap((line) => doc.splitTextToSize(line, textWidth) as string[]);
    const nameLines = doc.setFont(FONT, 'bold').splitTextToSize(name, textWidth) as string[];
    const height = 5 * (nameLines.length + wrapped.length) + 3;
    if (y + height > bottom) {
      doc.addPage();
      y = PAGE.margin + 5;
    }
    doc.text(text.sheet.number(i + 1), left, y);
    doc.text(`${format.clock(visit.startMin)}–${format.clock(visit.departMin)}`, left + 8, y);
    doc.text(nameLines, textX, y);
    doc.setFont(FONT, 'normal').setFontSize(9);
    doc.text(text.sheet.drive(visit.travelMin), left + 8, y + 5);
    doc.setFontSize(10).text(wrapped, textX, y + 5 * nameLines.length);
    y += height;
    doc.setDrawColor(200).line(left, y - 3.5, left + width, y - 3.5);
  });
  return doc.output('blob');
}
