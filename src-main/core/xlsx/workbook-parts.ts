// The small SpreadsheetML parts around a sheet: the workbook's sheet list and date system, the
// relationships that say where each part is, the shared strings and the cell styles' number
// formats. Each is read with the strict XML reader into plain values.
import { numberShape, type NumberShape } from './cell-format';
import { MAX_SHARED_STRINGS, MAX_STYLES, tooManyOf } from './limits';
import { officeText, parseXml, parseXmlPausing } from './xml';

export interface SheetEntry {
  name: string;
  relId: string;
  hidden: boolean;
}

export interface WorkbookInfo {
  sheets: SheetEntry[];
  date1904: boolean;
}

export function readWorkbook(xml: string): WorkbookInfo {
  const sheets: SheetEntry[] = [];
  let date1904 = false;
  parseXml(xml, {
    open(name, attrs) {
      if (name === 'sheet') {
        sheets.push({
          name: attrs.name ?? `Sheet${sheets.length + 1}`,
          relId: attrs.id ?? '',
          hidden: attrs.state === 'hidden' || attrs.state === 'veryHidden',
        });
      } else if (name === 'workbookPr') {
        date1904 = attrs.date1904 === '1' || attrs.date1904 === 'true';
      }
    },
    close() {},
    text() {},
  });
  return { sheets, date1904 };
}

export interface Relationship {
  id: string;
  /** The relationship type's last segment: worksheet, sharedStrings, styles, officeDocument. */
  type: string;
  /** The target as a path inside the archive. */
  path: string;
}

/** Joins a relationship target to the folder of the part it belongs to. */
function resolvePath(baseDir: string, target: string): string {
  const parts = target.startsWith('/') ? [] : baseDir.split('/').filter((p) => p !== '');
  for (const segment of target.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') parts.pop();
    else parts.push(segment);
  }
  return parts.join('/');
}

/** The relationships of a part; `baseDir` is the folder of that part ("xl" for the workbook). */
export function readRelationships(xml: string, baseDir: string): Relationship[] {
  const out: Relationship[] = [];
  parseXml(xml, {
    open(name, attrs) {
      if (name !== 'Relationship' || attrs.TargetMode === 'External') return;
      const type = (attrs.Type ?? '').split('/').pop() ?? '';
      out.push({ id: attrs.Id ?? '', type, path: resolvePath(baseDir, attrs.Target ?? '') });
    },
    close() {},
    text() {},
  });
  return out;
}

/** The shared string table: each <si>'s text runs joined, phonetic guides (<rPh>) left out. */
export async function readSharedStrings(
  xml: string,
  pause: () => Promise<void>,
): Promise<string[]> {
  const out: string[] = [];
  let current: string | null = null;
  let inText = false;
  let phonetic = 0;
  await parseXmlPausing(
    xml,
    {
      open(name) {
        if (name === 'si') {
          if (out.length >= MAX_SHARED_STRINGS) throw tooManyOf('shared texts', MAX_SHARED_STRINGS);
          current = '';
        } else if (name === 'rPh') phonetic++;
        else if (name === 't' && current !== null && phonetic === 0) inText = true;
      },
      close(name) {
        if (name === 'si') {
          out.push(officeText(current ?? ''));
          current = null;
        } else if (name === 'rPh') phonetic--;
        else if (name === 't') inText = false;
      },
      text(text) {
        if (inText && current !== null) current += text;
      },
    },
    pause,
  );
  return out;
}

/** How each cell style (the `s` of a cell, an index into cellXfs) shows numbers. */
export function readStyles(xml: string): NumberShape[] {
  const codes = new Map<number, string>();
  const shapes: NumberShape[] = [];
  let inCellXfs = false;
  parseXml(xml, {
    open(name, attrs) {
      if (name === 'numFmt') {
        if (codes.size >= MAX_STYLES) throw tooManyOf('number formats', MAX_STYLES);
        codes.set(Number(attrs.numFmtId), attrs.formatCode ?? '');
      } else if (name === 'cellXfs') inCellXfs = true;
      else if (name === 'xf' && inCellXfs) {
        if (shapes.length >= MAX_STYLES) throw tooManyOf('cell styles', MAX_STYLES);
        const id = Number(attrs.numFmtId ?? 0);
        shapes.push(numberShape(id, codes.get(id)));
      }
    },
    close(name) {
      if (name === 'cellXfs') inCellXfs = false;
    },
    text() {},
  });
  return shapes;
}
